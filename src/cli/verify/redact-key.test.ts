import { expect, test } from 'vitest'
import { redactor } from './redact-key.js'

test('replaces the key, and its percent-encoded form, wherever it appears', () => {
  const redact = redactor('s3cret+key/PQ==')
  expect(redact('Bearer s3cret+key/PQ== was refused; see /login?k=s3cret%2Bkey%2FPQ%3D%3D')).toBe(
    'Bearer [key] was refused; see /login?k=[key]',
  )
})

test('leaves text alone for a key too short to tell from other text', () => {
  expect(redactor('1')('status 401')).toBe('status 401')
})
