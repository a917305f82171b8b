import { expectOrderId, type Int64Key } from '../int64.js'
import type { Int64 } from '../glossary.js'
import { OPERATION_IDS, type OperationId } from '../operations/registry.js'
import { ValidationError } from '../validation-error.js'
import type { JournalEntry, JournalRecord } from './journal.js'
import { quote } from '../quote-value.js'

/** Which requests to count: every field given must match. The same shape in process, over HTTP and in the matchers. */
export interface RequestFilter {
  operation?: OperationId
  /** Compared ignoring case: `delete` is `DELETE`. */
  method?: string
  /** The order a cancel acted on; compared as an int64, exactly (`"007"` is 7, 2^63-1 keeps every digit). */
  orderId?: Int64 | string
  status?: number
}

/** A filter once checked: its order id canonical, its method upper case. */
export interface CheckedFilter {
  operation?: OperationId
  method?: string
  orderId?: Int64Key
  status?: number
}

const FIELDS = ['operation', 'method', 'orderId', 'status']

/** Reads a filter given in process (typed values) or over HTTP (strings); the error names the field. */
export function parseRequestFilter(input: unknown): CheckedFilter {
  if (input === undefined || input === null) return {}
  if (typeof input !== 'object' || Array.isArray(input))
    throw new ValidationError('filter', 'A request filter is an object with any of operation, method, orderId, status.')
  const checked: CheckedFilter = {}
  for (const [field, value] of Object.entries(input)) {
    if (value === undefined) continue
    if (field === 'operation') {
      if (!(OPERATION_IDS as readonly unknown[]).includes(value))
        throw new ValidationError(field, `"operation" must be one of ${OPERATION_IDS.join(', ')}, got ${quote(value)}.`)
      checked.operation = value as OperationId
    } else if (field === 'method') {
      if (typeof value !== 'string' || !/^[A-Za-z]{1,20}$/.test(value))
        throw new ValidationError(field, `"method" must be an HTTP method such as DELETE, got ${quote(value)}.`)
      checked.method = value.toUpperCase()
    } else if (field === 'orderId') {
      const key = expectOrderId(value)
      checked.orderId = key
    } else if (field === 'status') {
      const status = typeof value === 'string' && /^(0|\d{3})$/.test(value) ? Number(value) : value
      if (typeof status !== 'number' || !Number.isInteger(status) || (status !== 0 && (status < 100 || status > 599)))
        throw new ValidationError(
          field,
          `"status" must be an HTTP status from 100 to 599, or 0 for requests that got no answer, got ${quote(value)}.`,
        )
      checked.status = status
    } else {
      throw new ValidationError(field, `Unknown request filter field ${quote(field)}; the fields are ${FIELDS.join(', ')}.`)
    }
  }
  return checked
}

/** Whether a recorded request matches every field of the filter. */
export function matchesFilter(record: JournalRecord, filter: CheckedFilter): boolean {
  return (
    (filter.operation === undefined || record.operation === filter.operation) &&
    (filter.method === undefined || record.method.toUpperCase() === filter.method) &&
    (filter.orderId === undefined || record.orderId === filter.orderId) &&
    (filter.status === undefined || record.status === filter.status)
  )
}

/** Checks the `times` of a `toHaveReceived`: a whole number of 0 or more, or none. */
export function checkTimes(times: number | undefined): void {
  if (times !== undefined && (!Number.isSafeInteger(times) || times < 0))
    throw new TypeError(`toHaveReceived: times must be a whole number of 0 or more, got ${quote(times)}.`)
}

/** What `toHaveReceived` decides: at least one match, or exactly `times`; and the message either way. */
export function verifyReceived(
  matching: number,
  all: readonly JournalEntry[],
  filter: CheckedFilter,
  times: number | undefined,
): { pass: boolean; message: (not: boolean) => string } {
  const pass = times === undefined ? matching > 0 : matching === times
  const wanted = `${JSON.stringify(filter)}${times === undefined ? '' : ` ${times} time${times === 1 ? '' : 's'}`}`
  const received =
    all.length === 0
      ? '  (none)'
      : all
          .map((entry) => `  ${entry.method} ${entry.path} -> ${entry.status}${entry.operation === null ? '' : ` (${entry.operation})`}`)
          .join('\n')
  return {
    pass,
    message: (not) => `Expected the simulator ${not ? 'not ' : ''}to have received ${wanted}; ${matching} matched. Received:\n${received}`,
  }
}
