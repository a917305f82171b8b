import { expect, test } from 'vitest'
import { escapeControls } from './terminal-text.js'

test('every control a terminal would obey shows as its escape; other text, quotes and backslashes, stays as it is', () => {
  expect(escapeControls('\u001b[2J\u0007\u0000\t\r\n\u007f\u009b31m\u202eevil\u2066\u2028')).toBe(
    '\\x1b[2J\\x07\\x00\\x09\\x0d\\x0a\\x7f\\x9b31m\\u202eevil\\u2066\\u2028',
  )
  expect(escapeControls('order_not_found: "café" \\ 🐶')).toBe('order_not_found: "café" \\ 🐶')
})
