/**
 * A copy of `text` that shares no storage with the string it was cut from.
 * V8 keeps a slice's whole parent alive: a short key cut from a long token
 * would hold the whole token for as long as the key is kept.
 */
export function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string
}
