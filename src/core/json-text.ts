/**
 * JSON text of a value whose integers may be bigints (how an exact reading of a scenario file gives numbers
 * past 2^53): as `JSON.stringify`, with a bigint written as its digits. Small on purpose: a page answers
 * `GET /pets/{petId}` with it and should not load a JSON library for that.
 */
export function jsonText(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  const { toJSON } = value as { toJSON?: unknown }
  if (typeof toJSON === 'function') return jsonText(toJSON.call(value))
  if (Array.isArray(value)) return `[${value.map((item) => (omitted(item) ? 'null' : jsonText(item))).join(',')}]`
  const members: string[] = []
  for (const [key, item] of Object.entries(value)) if (!omitted(item)) members.push(`${JSON.stringify(key)}:${jsonText(item)}`)
  return `{${members.join(',')}}`
}

/** What JSON leaves out of an object (and writes as null in an array). */
const omitted = (item: unknown) => item === undefined || typeof item === 'function' || typeof item === 'symbol'
