/**
 * A copy of `text` that shares no storage with the string it was cut from.
 * V8 keeps a slice's whole parent alive: a 64-character key cut from a 60 KB
 * token would hold all 60 KB for as long as the key is kept.
 */
export function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string
}
