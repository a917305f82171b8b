import { isInteger, isSafeNumber, parse, stringify } from 'lossless-json'

/**
 * Parses JSON without losing digits: integers beyond 2^53 become bigints, so
 * an int64 id such as 9007199254740993 keeps its value. Throws as
 * `JSON.parse` does (a `SyntaxError`, or a `RangeError` when nested too deeply).
 */
export function parseExactJson(text: string): unknown {
  return parse(text, null, (digits) => (isInteger(digits) && !isSafeNumber(digits) ? BigInt(digits) : Number(digits)))
}

/** JSON text of a value that may hold bigints (int64 ids beyond 2^53), written with every digit; `indent` spaces a file. */
export function stringifyExactJson(value: unknown, indent?: number): string {
  return stringify(value, undefined, indent) ?? 'null'
}
