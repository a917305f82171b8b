import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { ErrorCode } from '../src/index.js'
import { createControls } from '../src/core/controls/controls.js'
import { createDispatcher } from '../src/core/dispatch/dispatcher.js'
import { parseApiBase } from '../src/core/operations/routing.js'
import { createJournal } from '../src/core/state/journal.js'
import type { OrderStore } from '../src/core/state/order-store.js'
import { createHandlers } from '../src/transports/msw/handlers.js'
import { withUnhandledStrategy } from '../src/transports/msw/unhandled-requests.js'
import { expectResponseMatchesContract } from './support/contract.js'
import { API, KEY } from './support/harness.js'

const server = setupServer()
beforeAll(() => server.listen(withUnhandledStrategy(server, {}, 'error')))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

test('exports every error code as a stable snake_case constant', () => {
  expect(Object.values(ErrorCode).sort()).toEqual([
    'bad_gateway',
    'expectation_failed',
    'forbidden_host',
    'forbidden_origin',
    'gateway_timeout',
    'headers_too_large',
    'internal_error',
    'invalid_order_id',
    'invalid_request',
    'method_not_allowed',
    'not_found',
    'order_already_shipped',
    'order_not_found',
    'order_not_pending',
    'payload_too_large',
    'pet_not_found',
    'rate_limited',
    'request_timeout',
    'scenario_file_invalid',
    'service_unavailable',
    'unauthorized',
    'unknown_scenario',
  ])
})

test('a handler that throws answers 500 internal_error with an Error body and no stack trace', async () => {
  const broken = new Error('store exploded at /work/secret/path.ts:12')
  const store: OrderStore = {
    version: () => 0,
    replaceAll: () => Promise.resolve(),
    all: () => {
      throw broken
    },
    find: () => {
      throw broken
    },
    change: () => Promise.reject(broken),
  }
  server.use(
    ...createHandlers(
      parseApiBase('/v1'),
      createDispatcher({
        base: parseApiBase('/v1'),
        instanceFor: () => ({
          store,
          settings: () => ({ acceptedKeys: new Set([KEY]), exposeStatus: false, afterCancel: 'keep', petBodies: new Map() }),
          controls: createControls(),
          journal: createJournal(10),
        }),
        journal: createJournal(10),
        config: { deprecation: { deprecatedAt: new Date(0), sunsetAt: new Date(0) } },
        fallthrough: false,
        bodyLimit: 1024,
      }),
    ),
  )

  for (const [method, path] of [
    ['GET', '/store/orders'],
    ['DELETE', '/store/orders/1'],
  ] as const) {
    const response = await fetch(`${API}${path}`, { method, headers: { Authorization: `Bearer ${KEY}` } })
    const text = await response.text()

    expect(response.status).toBe(500)
    expect(response.headers.get('Content-Type')).toBe('application/json')
    expect(JSON.parse(text)).toEqual({ code: 'internal_error', message: expect.any(String), status: 500 })
    expect(text).not.toMatch(/stack|exploded|secret|\.ts:/)
    expectResponseMatchesContract(method, path, { status: response.status, headers: response.headers, text })
  }
})
