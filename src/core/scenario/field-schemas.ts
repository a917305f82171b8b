// The valibot pieces a scenario's fields are written with (scenario-schema.ts), each with its message.
// A message says what follows the field's name, which valibot's issue path gives (" must be a string,
// got 42" after "orders[2].id"); one that does not start with a space or a colon is said whole.
// parse-scenario.ts puts them together. `v.metadata` gives the JSON Schema keywords of what valibot's
// converter cannot read: a custom type, a check (scenario-json-schema.ts).
import * as v from 'valibot'
import type { Int64, JsonValue } from '../glossary.js'
import { int64Key, int64Value } from '../int64.js'
import { describe } from '../quote-value.js'
import { ValidationError } from '../validation-error.js'
import { isDateTime } from './date-time.js'
import { isPlainObject } from './plain-object.js'

/** The deepest nesting a pet record may have. */
const MAX_PET_DEPTH = 32

type Say = (issue: v.BaseIssue<unknown>) => string
export const mustBe =
  (what: string): Say =>
  (issue) =>
    ` must be ${what}, got ${describe(issue.input)}`

/**
 * A JSON object of these fields, checked in the order the loader has always kept: its kind, a field it
 * does not know, a required one it lacks, then each value (valibot's strictObject looks at the values
 * first). `lacking` says a missing field instead, in its turn among the values.
 */
export function record<const E extends v.ObjectEntries>(entries: E, lacking?: Say) {
  const names = Object.keys(entries)
  const allowed = names.filter((name) => name !== '$schema').join(', ')
  const say: Say = (issue) => (issue.expected === 'never' ? ` (allowed: ${allowed})` : (lacking?.(issue) ?? ' is required'))
  const required = lacking === undefined ? names.filter((name) => !/optional|nullish/.test(entries[name]?.type ?? '')) : []
  return v.pipe(
    v.custom<v.InferInput<v.ObjectSchema<E, undefined>>>(isPlainObject, mustBe('an object')),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return
      const input = dataset.value as Record<string, unknown>
      const key = Object.keys(input).find((name) => !Object.hasOwn(entries, name)) ?? required.find((name) => input[name] === undefined)
      // As valibot's strictObject says them: at the key, expecting never (unknown) or the key (missing).
      const expected = key !== undefined && Object.hasOwn(entries, key) ? `"${key}"` : 'never'
      if (key !== undefined) addIssue({ message: say, expected, path: [{ type: 'object', origin: 'key', input, key, value: input[key] }] })
    }),
    // Unknown fields are refused above: valibot's object, which does not look for them again, is enough.
    v.object(entries, say),
    v.metadata({ additionalProperties: false }),
  )
}

/**
 * `object` for a JSON object, `other` for anything else: each says its own problem, which valibot's
 * union, failing whole, does not. To the JSON Schema converter it is that union (anyOf).
 */
export function objectOr<O extends v.GenericSchema, T extends v.GenericSchema>(object: O, other: T) {
  const run = (dataset: v.UnknownDataset, config: v.Config<v.BaseIssue<unknown>>) =>
    (isPlainObject(dataset.value) ? object : other)['~run'](dataset, config)
  return { ...v.custom(() => true), type: 'union', options: [other, object], '~run': run } as unknown as v.UnionSchema<[T, O], undefined>
}

/**
 * A field the reader of the simulator's option of that name checks; `say` turns the reader's message
 * into this field's, as `[message, the field it names past this one]`. Its output is what the reader
 * returns; to the JSON Schema converter it is `shape`, what the reader takes (as objectOr does).
 */
export function readBy<In, Out>(
  shape: v.GenericSchema,
  read: (value: unknown) => Out,
  say: (error: ValidationError) => [string, string?],
): v.GenericSchema<In, Out> {
  const reader = v.rawTransform<unknown, Out>(({ dataset, addIssue, NEVER }) => {
    try {
      return read(dataset.value)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      const [message, key] = say(error)
      addIssue({
        message,
        ...(key === undefined ? {} : { path: [{ type: 'object', origin: 'value', input: {}, key, value: undefined }] }),
      })
      return NEVER
    }
  })
  return { ...shape, '~run': v.pipe(v.unknown(), reader)['~run'] } as unknown as v.GenericSchema<In, Out>
}
const stripped = (error: ValidationError) => error.message.replace(/\.$/, '')
/** A reader's message names its option ("latency must be …") or follows this field's name. */
export const asOption = (error: ValidationError): [string] => {
  const message = stripped(error)
  return [message.startsWith(error.field.split('.')[0] ?? '') ? message : `: ${message}`]
}
/** A reader of one item of a list: its message follows the item's name ("faults[0]: …"). */
export const asItem = (error: ValidationError): [string] => [`: ${stripped(error)}`]
/** A reader whose messages name the field at fault under this one ("lifecycle.shipAfter must be …"). */
export const asField = (error: ValidationError): [string, string?] => {
  const [, key] = /^[^.]*\.(.*)$/.exec(error.field) ?? []
  return [stripped(error), key]
}

export const text = v.string(mustBe('a string'))
export const flag = v.boolean(mustBe('true or false'))
export const oneOf = <const T extends readonly string[]>(options: T) =>
  v.picklist(options, mustBe(`one of ${options.map((option) => `"${option}"`).join(', ')}`))
export const dateTime = (example?: string) =>
  v.pipe(
    text,
    v.check(isDateTime, mustBe(`an ISO 8601 date-time${example === undefined ? '' : ` such as "${example}"`}`)),
    v.metadata({ format: 'date-time' }),
  )
/** A safe integer, also when the exact JSON reader made it a bigint, between `min` and `max`. */
export const integer = (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(
    v.custom<number>((value) => Number.isSafeInteger(typeof value === 'bigint' ? Number(value) : value), mustBe('an integer')),
    v.transform((value: number) => Number(value)),
    v.check(
      (value) => value >= min && value <= max,
      (issue) => ` must be between ${min} and ${max}, got ${issue.input}`,
    ),
    v.metadata({ type: 'integer', minimum: min, maximum: max }),
  )
/** An order id: a number, or a bigint past 2^53, as the order API writes it. */
export const ExactInt64 = v.pipe(
  v.custom<Int64>(
    (value) => Number.isSafeInteger(value) || int64Key(value) !== null,
    mustBe('an integer between -9223372036854775808 and 9223372036854775807 (int64)'),
  ),
  // A safe integer is its own value (but -0 is 0); a bigint or a larger number is read through its key.
  v.transform((value) => (Number.isSafeInteger(value) ? (value as number) || 0 : int64Value(int64Key(value) as string))),
  // No minimum and maximum: a double cannot hold them, and JSON.stringify would write 9223372036854776000.
  v.metadata({ type: 'integer', format: 'int64' }),
)

/** A copy of a pet record; what is wrong with it is thrown, with where. */
function copyJson(value: unknown, depth: number, path: v.IssuePathItem[]): JsonValue {
  if (depth > MAX_PET_DEPTH) throw { path, message: ` is nested more than ${MAX_PET_DEPTH} levels deep` }
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (Array.isArray(value)) {
    return value.map((item, key) =>
      copyJson(item, depth + 1, [...path, { type: 'array', origin: 'value', input: value, key, value: item }]),
    )
  }
  if (typeof value !== 'number' && isPlainObject(value)) {
    const copy: Record<string, JsonValue> = {}
    for (const [key, item] of Object.entries(value)) {
      const at: v.IssuePathItem = { type: 'object', origin: 'value', input: value, key, value: item }
      // defineProperty, not assignment: a "__proto__" key stays a plain own property.
      Object.defineProperty(copy, key, {
        value: copyJson(item, depth + 1, [...path, at]),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return copy
  }
  throw { path, message: mustBe('a JSON value')({ input: value } as v.BaseIssue<unknown>) }
}
/** Opaque pet records: any JSON, copied. */
export const Pets = v.pipe(
  v.custom<Record<string, JsonValue>>(isPlainObject, mustBe('an object keyed by petId')),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    try {
      return copyJson(dataset.value, 0, []) as Record<string, JsonValue>
    } catch (problem) {
      const { path, message } = problem as { path: v.IssuePathItem[]; message: string }
      addIssue({ message, ...(path.length === 0 ? {} : { path: path as [v.IssuePathItem, ...v.IssuePathItem[]] }) })
      return NEVER
    }
  }),
  v.metadata({ type: 'object' }),
)
