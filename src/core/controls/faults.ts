import { ApiError } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import type { Int64 } from '../glossary.js'
import { int64Key, parseInt64 } from '../int64.js'
import { OPERATION_IDS, type OperationId } from '../operations/registry.js'
import { ValidationError } from '../validation-error.js'
import * as v from 'valibot'
import { isWhole, whole } from './latency.js'
import { quote } from '../quote-value.js'

/** What a fault does and when. Exactly one of `times` and `probability` may be given (neither: every time). */
export interface FaultInput {
  operation: OperationId
  /** Only requests that act on this order (cancelOrder). */
  orderId?: Int64 | string
  kind: FaultKind
  /** For `status`: 500 (default), 502, 503 or 504. */
  status?: number
  /** For `status` 503: seconds in the Retry-After header (default 1). */
  retryAfter?: number
  /** For `slow-body`: how long the body takes to arrive, in ms (default 2000). For `hang`: the longest it hangs (default 600000). */
  durationMs?: number
  /** Fail this many times, then behave again. */
  times?: number
  /** Fail with this probability (0 to 1). */
  probability?: number
}

export interface Fault extends FaultInput {
  id: number
  /** How many more times it fires (`null`: no limit). */
  remaining: number | null
}

/** A fault as it can be added again: what is left of it, without its id. */
export function faultInputOf({ id: _id, remaining, ...fault }: Fault): FaultInput {
  return remaining === null ? fault : { ...fault, times: remaining }
}

/** How many faults one simulator (or session) holds at once. */
export const MAX_FAULTS = 100
const MAX_DURATION_MS = 600_000

const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  500: ErrorCode.InternalError,
  502: ErrorCode.BadGateway,
  503: ErrorCode.ServiceUnavailable,
  504: ErrorCode.GatewayTimeout,
}
const FAULT_KINDS = ['status', 'network', 'hang', 'slow-body', 'malformed-json'] as const
type FaultKind = (typeof FAULT_KINDS)[number]

/** One fault, as a scenario file's JSON Schema says what parseFault takes. */
export const FaultShape = v.strictObject({
  operation: v.picklist(OPERATION_IDS),
  orderId: v.optional(v.union([v.pipe(v.number(), v.integer()), v.pipe(v.string(), v.regex(/^-?\d+$/))])),
  kind: v.picklist(FAULT_KINDS),
  status: v.optional(v.picklist([500, 502, 503, 504])),
  retryAfter: v.optional(whole(0)),
  durationMs: v.optional(whole(0, MAX_DURATION_MS)),
  times: v.optional(whole(1)),
  probability: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
})
const FAULT_FIELDS = Object.keys(FaultShape.entries)

/** A fault's order id as a canonical int64, so that a request's id is compared as a string. */
function faultOrderId(orderId: unknown): Int64 | string {
  // A JSON number as read (a bigint beyond 2^53, from an exact admin body), or a decimal string.
  const exact = typeof orderId === 'bigint' || (typeof orderId === 'number' && Number.isSafeInteger(orderId))
  const key = exact ? int64Key(orderId) : typeof orderId === 'string' ? parseInt64(orderId) : null
  if (key === null) {
    throw new ValidationError(
      'orderId',
      `"orderId" must be an int64: a decimal integer between -9223372036854775808 and 9223372036854775807, got ${quote(orderId)}.`,
    )
  }
  return exact ? (orderId as Int64) : key
}

type FaultNumber = 'status' | 'retryAfter' | 'durationMs' | 'times' | 'probability'
/** The optional numbers of a fault, in the order they are checked: what each takes, as its message says after its name. */
const FAULT_NUMBERS: Record<FaultNumber, [takes: (value: unknown, fault: FaultInput) => boolean, rule: string]> = {
  status: [
    (value, fault) => fault.kind === 'status' && typeof value === 'number' && STATUS_CODES[value] !== undefined,
    `goes with kind "status" and is one of ${Object.keys(STATUS_CODES).join(', ')}`,
  ],
  retryAfter: [(value) => isWhole(value), 'must be whole seconds'],
  durationMs: [(value) => isWhole(value) && value <= MAX_DURATION_MS, `must be whole milliseconds up to ${MAX_DURATION_MS}`],
  times: [(value) => isWhole(value, 1), 'must be a whole number of 1 or more'],
  probability: [(value) => typeof value === 'number' && value >= 0 && value <= 1, 'must be between 0 and 1'],
}

/** The optional numbers of a fault, each checked against its own range. */
function faultNumbers(record: Record<string, unknown>, fault: FaultInput): void {
  for (const [field, [takes, rule]] of Object.entries(FAULT_NUMBERS) as [FaultNumber, (typeof FAULT_NUMBERS)[FaultNumber]][]) {
    const value = record[field]
    if (field === 'times' && value !== undefined && record['probability'] !== undefined)
      throw new ValidationError('times', 'Give "times" or "probability", not both.')
    if (value === undefined) continue
    if (!takes(value, fault)) throw new ValidationError(field, `"${field}" ${rule}, got ${quote(value)}.`)
    fault[field] = value as number
  }
}

/** "got 7", or "but it is missing" for a field not given (quote would say undefined). */
function got(value: unknown): string {
  return value === undefined ? 'but it is missing' : `got ${quote(value)}`
}

/** Checks a fault description; the error names the field at fault. */
export function parseFault(input: unknown): FaultInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new ValidationError('fault', 'A fault is a JSON object with at least "operation" and "kind".')
  const record = input as Record<string, unknown>
  const unknown = Object.keys(record).filter((key) => !FAULT_FIELDS.includes(key))
  if (unknown.length > 0) {
    throw new ValidationError(
      unknown[0] ?? 'fault',
      `Unknown fault field ${unknown.map((key) => `"${key}"`).join(', ')}; the fields are ${FAULT_FIELDS.join(', ')}.`,
    )
  }
  const { operation, orderId, kind } = record
  if (typeof operation !== 'string' || !(OPERATION_IDS as readonly string[]).includes(operation)) {
    throw new ValidationError('operation', `"operation" must be one of ${OPERATION_IDS.join(', ')}, ${got(operation)}.`)
  }
  if (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind)) {
    throw new ValidationError('kind', `"kind" must be one of ${FAULT_KINDS.join(', ')}, ${got(kind)}.`)
  }
  const fault: FaultInput = { operation: operation as OperationId, kind: kind as FaultKind }
  if (orderId !== undefined) {
    if (operation !== 'cancelOrder') throw new ValidationError('orderId', '"orderId" applies to cancelOrder only.')
    fault.orderId = faultOrderId(orderId)
  }
  faultNumbers(record, fault)
  return fault
}

/** The Error body of a `status` fault. */
export function faultError(fault: Fault): ApiError {
  const status = fault.status ?? 500
  const headers: Record<string, string> = status === 503 ? { 'Retry-After': String(fault.retryAfter ?? 1) } : {}
  const message = `Injected fault #${fault.id}: ${fault.operation} answers ${status} on purpose.`
  return new ApiError(status, STATUS_CODES[status] ?? ErrorCode.InternalError, message, headers)
}

/** The faults of one state, in the order they were added. */
export function createFaultList() {
  let faults: Fault[] = []
  let nextId = 1
  return {
    /** The id the next fault gets: a snapshot keeps it, so that ids are never given twice. */
    nextId: () => nextId,
    /**
     * Puts back the faults a snapshot listed (checked by `faultSnapshotSchema`), with their ids and what remains
     * of them; a `RangeError`, changing nothing, when there are too many or an id is twice or not below `next`.
     */
    restore(list: readonly Fault[], next: number): void {
      const ids = new Set(list.map((fault) => fault.id))
      if (list.length > MAX_FAULTS) throw new RangeError(`At most ${MAX_FAULTS} faults, not ${list.length}.`)
      if (!Number.isSafeInteger(next) || ids.size !== list.length || list.some((fault) => !(fault.id >= 1 && fault.id < next)))
        throw new RangeError(`Each fault id is given once, between 1 and the next id (${next}).`)
      faults = list.map((fault) => ({ ...fault }))
      nextId = next
    },
    add(input: FaultInput): Fault {
      if (faults.length >= MAX_FAULTS) {
        throw new ValidationError('faults', `At most ${MAX_FAULTS} faults can be active at once; remove some first (DELETE /__sim/faults).`)
      }
      const fault: Fault = { ...input, id: nextId++, remaining: input.times ?? null }
      faults.push(fault)
      return { ...fault }
    },
    list: () => faults.map((fault) => ({ ...fault })),
    remove(id: number) {
      const before = faults.length
      faults = faults.filter((fault) => fault.id !== id)
      return faults.length < before
    },
    clear() {
      faults = []
    },
    /** The fault that fires for this request, if any, counted down. */
    take(operation: OperationId, orderId: string | null, random: () => number): Fault | undefined {
      if (faults.length === 0) return undefined
      const fault = faults.find(
        (candidate) => candidate.operation === operation && (candidate.orderId === undefined || String(candidate.orderId) === orderId),
      )
      if (fault === undefined) return undefined
      if (fault.probability !== undefined && random() >= fault.probability) return undefined
      if (fault.remaining !== null) {
        fault.remaining -= 1
        if (fault.remaining <= 0) faults = faults.filter((candidate) => candidate !== fault)
      }
      return { ...fault }
    },
  }
}
