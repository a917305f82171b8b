/**
 * `{...}` or `Object.create(null)`, made in any realm: a scenario built in a
 * Jest sandbox, a vm context or an iframe has another `Object.prototype`.
 * Arrays, Dates, Maps and class instances are not.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false
  }
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype === null) return true
  return Object.getPrototypeOf(prototype) === null && Object.prototype.toString.call(value) === '[object Object]'
}
