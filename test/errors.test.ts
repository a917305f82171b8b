import { createRouteBook } from '../src/core/routes/route-book.js'
import { createCoverageCounter } from '../src/core/outcome-coverage/coverage-counter.js'
import * as msw from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { createSimulator, ErrorCode } from '../src/index.js'
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
afterEach(() => {
  server.resetHandlers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})
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
    'invalid_path',
    'invalid_request',
    'method_not_allowed',
    'not_found',
    'order_already_shipped',
    'order_exists',
    'order_not_found',
    'order_not_pending',
    'payload_too_large',
    'pet_not_found',
    'proxy_answer_too_large',
    'proxy_bad_answer',
    'proxy_timeout',
    'proxy_unreachable',
    'rate_limited',
    'request_timeout',
    'scenario_exists',
    'scenario_file_invalid',
    'scenario_too_large',
    'scenarios_dir_unavailable',
    'service_unavailable',
    'too_many_orders',
    'too_many_sessions',
    'unauthorized',
    'unknown_scenario',
  ])
})

test('a handler that throws answers 500 internal_error with an Error body and no stack trace', async () => {
  const broken = new Error('store exploded at /work/secret/path.ts:12')
  const store: OrderStore = {
    version: () => 0,
    replaceAll: () => Promise.resolve(),
    owned: () => 0,
    ownRecords: () => ({ records: [], nextPosition: 0 }),
    restoreOwn: () => undefined,
    all: () => {
      throw broken
    },
    find: () => {
      throw broken
    },
    change: () => Promise.reject(broken),
  }
  const reported: unknown[] = []
  server.use(
    ...createHandlers(
      msw,
      parseApiBase('/v1'),
      createDispatcher({
        base: parseApiBase('/v1'),
        instanceFor: () => ({
          store,
          settings: () => ({ acceptedKeys: new Set([KEY]), exposeStatus: false, afterCancel: 'keep', petBodies: new Map() }),
          controls: createControls(),
          journal: createJournal(10),
          routes: createRouteBook([]),
          coverage: createCoverageCounter(),
        }),
        journal: createJournal(10),
        config: { deprecation: { deprecatedAt: new Date(0), sunsetAt: new Date(0) } },
        fallthrough: false,
        bodyLimit: 1024,
        report: (error) => reported.push(error),
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
  // The stack the client never sees goes to the reporter, once per request.
  expect(reported).toEqual([broken, broken])
})

/** An environment the simulator cannot work in: the order model gets no record keys, so a cancel cannot be written. */
function breakRandomUuid(): Error {
  const broken = new Error('crypto.randomUUID is broken here')
  vi.spyOn(crypto, 'randomUUID').mockImplementation(() => {
    throw broken
  })
  return broken
}

const cancel = (query = '') => fetch(`${API}/store/orders/1${query}`, { method: 'DELETE', headers: { Authorization: `Bearer ${KEY}` } })

test('an error inside the simulator reaches the onError option once, and the 500 body stays without a stack', async () => {
  const errors: unknown[] = []
  const sim = createSimulator({ scenario: 'pending', onError: (error) => errors.push(error) })
  server.use(...sim.handlers)
  await sim.reset() // the model holds the orders before the environment breaks
  const broken = breakRandomUuid()

  const response = await cancel()
  const text = await response.text()

  expect(response.status).toBe(500)
  expect(JSON.parse(text)).toEqual({ code: 'internal_error', message: expect.any(String), status: 500 })
  expect(text).not.toMatch(/broken|randomUUID|\bat\b/)
  expect(errors).toEqual([broken])
  expect(sim.requests({ operation: 'cancelOrder', status: 500 })).toHaveLength(1)
  expect(sim.orders().find((order) => order.id === 1)?.status).toBe('pending')
})

test('without onError, an error inside the simulator is printed once with console.error, prefixed and with its stack', async () => {
  const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  const sim = createSimulator({ scenario: 'pending' })
  server.use(...sim.handlers)
  await sim.reset() // the model holds the orders before the environment breaks
  const broken = breakRandomUuid()

  const response = await cancel('?reason=test')

  expect(response.status).toBe(500)
  expect(printed).toHaveBeenCalledTimes(1)
  const [line, error] = printed.mock.calls[0] ?? []
  expect(line).toMatch(
    /^petstore-orders-simulator: DELETE \/v1\/store\/orders\/1\?reason=test failed inside the simulator and was answered 500 internal_error\./,
  )
  expect(error).toBe(broken)
  expect((error as Error).stack).toContain('crypto.randomUUID is broken here')
})

test('an onError that throws does not change the answer, and both errors are printed', async () => {
  const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  const thrown = new Error('reporter failed')
  const sim = createSimulator({
    scenario: 'pending',
    onError: () => {
      throw thrown
    },
  })
  server.use(...sim.handlers)
  await sim.reset() // the model holds the orders before the environment breaks
  const broken = breakRandomUuid()

  const response = await cancel()

  expect(response.status).toBe(500)
  expect(printed.mock.calls.map((call) => call[1])).toEqual([thrown, broken])
})

test('an onError that is not a function is refused when the simulator is made', () => {
  expect(() => createSimulator({ onError: 'console' as unknown as () => void })).toThrow(
    'Failed to create the simulator: onError must be a function, got string.',
  )
})
