import { expect, test } from 'vitest'
import { withUnhandledStrategy } from './unhandled-requests.js'

const msw2 = {}
const msw3 = { readyState: 0 }

test('the strategy goes under onUnhandledRequest for msw 2 and onUnhandledFrame for msw 3', () => {
  expect(withUnhandledStrategy(msw2, {}, 'error')).toEqual({ onUnhandledRequest: 'error' })
  expect(withUnhandledStrategy(msw3, {}, 'error')).toEqual({ onUnhandledFrame: 'error' })
})

test('either name in the options is moved to the one the installed msw reads', () => {
  expect(withUnhandledStrategy(msw3, { onUnhandledRequest: 'bypass', quiet: true }, undefined)).toEqual({
    onUnhandledFrame: 'bypass',
    quiet: true,
  })
  expect(withUnhandledStrategy(msw2, { onUnhandledFrame: 'warn' }, undefined)).toEqual({ onUnhandledRequest: 'warn' })
})

test('an explicit strategy wins over the options, which win over the fallback', () => {
  expect(withUnhandledStrategy(msw3, { onUnhandledRequest: 'warn' }, 'error', 'bypass')).toEqual({ onUnhandledFrame: 'error' })
  expect(withUnhandledStrategy(msw3, { onUnhandledRequest: 'warn' }, undefined, 'bypass')).toEqual({ onUnhandledFrame: 'warn' })
  expect(withUnhandledStrategy(msw2, undefined, undefined, 'bypass')).toEqual({ onUnhandledRequest: 'bypass' })
  expect(withUnhandledStrategy(msw2, undefined, undefined)).toEqual({})
})
