/** The deepest nesting of arrays and objects the admin API reads in a body. */
export const MAX_JSON_DEPTH = 32

/**
 * Whether JSON text nests arrays and objects deeper than `max`, found by a
 * scan of the text (strings skipped) before anything parses it: a parser or
 * a message that walks a 200,000-deep value runs out of stack.
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (inString) {
      if (char === 92 /* \ */) index++
      else if (char === 34 /* " */) inString = false
    } else if (char === 34) {
      inString = true
    } else if (char === 91 /* [ */ || char === 123 /* { */) {
      if (++depth > max) return true
    } else if (char === 93 /* ] */ || char === 125 /* } */) {
      depth--
    }
  }
  return false
}
