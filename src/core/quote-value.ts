/** How many characters of a client's value a message shows. */
const SHOWN = 80

/**
 * A value a client sent, as a message shows it: JSON-like and at most about
 * 80 characters, whatever it is. The exact parser yields bigints (which
 * `JSON.stringify` refuses), and in process a caller may pass boxed numbers,
 * cycles, deep objects or throwing getters: none of them may turn a 400 into a 500.
 * @example
 * quote(9007199254740993n) // '9007199254740993'
 * quote('x'.repeat(5000))  // '"xxx…xxx"… (5000 characters)' (the first 80 of them)
 */
export function quote(value: unknown): string {
  // A long string alone says how long it was: a million digits is a different mistake from 81.
  if (typeof value === 'string' && value.length > SHOWN) return `${JSON.stringify(value.slice(0, SHOWN))}… (${value.length} characters)`
  let text = ''
  const seen = new Set<object>()
  const write = (part: string) => {
    text += part
    return text.length <= SHOWN
  }
  // Returns false once enough is written, so a huge array or object is never walked to its end.
  const walk = (item: unknown, depth: number): boolean => {
    if (typeof item === 'string') return write(JSON.stringify(item.length > SHOWN ? item.slice(0, SHOWN) : item))
    if (typeof item === 'bigint' || typeof item === 'number' || typeof item === 'boolean') return write(String(item))
    if (item === undefined) return write('undefined')
    if (typeof item === 'symbol') return write(item.toString())
    if (typeof item === 'function') return write('a function')
    if (item === null) return write('null')
    if (typeof item !== 'object') return write(typeof item)
    const unboxed = unbox(item)
    if (unboxed !== item) return walk(unboxed, depth)
    if (seen.has(item) || depth >= 8) return write(Array.isArray(item) ? '[…]' : '{…}')
    seen.add(item)
    const array = Array.isArray(item)
    if (!write(array ? '[' : '{')) return false
    let first = true
    for (const key in item) {
      if (!Object.hasOwn(item, key)) continue
      if (!first && !write(',')) return false
      first = false
      if (!array && !write(`${JSON.stringify(key.length > SHOWN ? key.slice(0, SHOWN) : key)}:`)) return false
      if (!walk((item as Record<string, unknown>)[key], depth + 1)) return false
    }
    return write(array ? ']' : '}')
  }
  try {
    walk(value, 0)
  } catch {
    // A proxy or a getter that throws: say so rather than fail the message.
    return 'a value that cannot be shown'
  }
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text
}

/** The primitive inside `new Number(5)`, `Object(5n)` and their kind, from any realm; anything else as it is. */
function unbox(item: object): unknown {
  if (!/^\[object (Number|String|Boolean|BigInt)\]$/.test(Object.prototype.toString.call(item))) return item
  // A plain object can claim any tag (Symbol.toStringTag): only a primitive counts as unboxed.
  const inner: unknown = (item as { valueOf(): unknown }).valueOf()
  return typeof inner === 'object' || typeof inner === 'function' ? item : inner
}

/**
 * What a value is, for a message that says what a field takes instead: the
 * value itself when it is short to show, its kind when it is a structure.
 */
export function describe(value: unknown): string {
  if (value === null || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return quote(value)
  if (typeof value === 'string') return `the string ${quote(value)}`
  if (Array.isArray(value)) return 'an array'
  try {
    const kind =
      typeof value === 'object'
        ? (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name
        : undefined
    return typeof kind === 'string' && kind !== '' ? `an instance of ${kind.slice(0, 40)}` : `a value of type ${typeof value}`
  } catch {
    return `a value of type ${typeof value}`
  }
}
