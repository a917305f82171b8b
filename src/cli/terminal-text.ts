/**
 * What a terminal acts on rather than shows: C0 and C1 controls (escape
 * sequences that clear the screen, move the cursor or hide text; CSI is
 * U+009B), DEL, line and paragraph separators, and the bidirectional
 * controls that reorder what follows them.
 */
const CONTROL = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu

/**
 * Text from elsewhere (a service's answer, a variable's name) made safe to
 * print on one line of a terminal: every control shown as its escape
 * (`\x1b`, `\u202e`), so it can be read, not obeyed.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.codePointAt(0) ?? 0
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
}
