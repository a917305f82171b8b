import type { BrowserContext, Route } from '@playwright/test'
import type { Fault } from '../../core/controls/faults.js'
import type { Order } from '../../core/glossary.js'
import type { ClockState } from '../../core/lifecycle/order-lifecycle.js'
import { SESSION_HEADER } from '../../core/simulator/sessions.js'
import type { SimulatorState } from '../../core/simulator/types.js'
import type { JournalEntry } from '../../core/state/journal.js'
import type { PactDocument } from '../../core/pact/pact-document.js'
import { adminClient } from './admin-client.js'
import type { FixtureSettings, SimulatorFixture } from './simulator-fixture.js'

/** The query of `GET /__sim/requests` for a filter; the server checks it as in process (a 400 names the field). */
function filterQuery(filter: object | undefined): string {
  const query = new URLSearchParams()
  for (const [field, value] of Object.entries(filter ?? {})) if (value !== undefined) query.append(field, String(value))
  const text = query.toString()
  return text === '' ? '' : `?${text}`
}

/** An order id as a path segment; the server answers a bad one with 400 `invalid_order_id`, as in process. */
const orderPath = (id: unknown) => encodeURIComponent(String(id))

/**
 * A session of the running simulator for one test: opened and reset to the
 * test's scenario, and joined by every request the browser context sends to
 * the simulator's origin (Playwright adds `X-Sim-Session` below the page, so
 * the app and its CORS preflights are untouched). Closing ends the session.
 */
export async function openServerFixture(
  context: BrowserContext,
  settings: FixtureSettings,
): Promise<{ sim: SimulatorFixture; close(): Promise<void> }> {
  const { origin } = settings.url
  const call = adminClient(origin, settings.session, settings.adminToken)
  await call('POST', '/reset', { scenario: settings.scenario })

  const matches = (url: URL) => url.origin === origin
  // fallback, not continue: the test's own routes still see the request, with the header.
  const join = async (route: Route) =>
    route.fallback({ headers: { ...(await route.request().allHeaders()), [SESSION_HEADER.toLowerCase()]: settings.session } })
  await context.route(matches, join)

  const state = async () => (await call('GET', '/state')) as SimulatorState
  const sim: SimulatorFixture = {
    session: settings.session,
    mode: 'server',
    url: settings.url.href,
    orders: async () => (await state()).orders,
    state,
    requests: async (filter) => (await call('GET', `/requests${filterQuery(filter)}`)) as JournalEntry[],
    clearRequests: async () => {
      await call('DELETE', '/requests')
    },
    pact: async ({ consumer, provider }) => (await call('GET', `/pact${filterQuery({ consumer, provider })}`)) as PactDocument,
    reset: async (scenario, options = {}) => {
      await call('POST', '/reset', { scenario, ...options })
    },
    updateOrder: async (id, patch) => (await call('PATCH', `/orders/${orderPath(id)}`, patch)) as Order,
    addOrder: async (order) => (await call('POST', '/orders', order)) as Order,
    removeOrder: async (id) => {
      await call('DELETE', `/orders/${orderPath(id)}`)
    },
    advanceClock: async (duration) => (await call('POST', '/clock', { advance: duration })) as ClockState,
    clock: async () => (await call('GET', '/clock')) as ClockState,
    addFault: async (fault) => (await call('POST', '/faults', fault)) as Fault,
    faults: async () => (await call('GET', '/faults')) as Fault[],
    clearFaults: async () => {
      await call('DELETE', '/faults')
    },
    setLatency: async (latency) => {
      await call('PUT', '/latency', latency)
    },
    setRateLimit: async (limit) => {
      await call('PUT', '/rate-limit', limit)
    },
  }
  return {
    sim,
    async close() {
      await context.unroute(matches, join)
      // The server would drop it when idle; ending it now keeps the session count low on a long run.
      await call('DELETE', `/sessions/${encodeURIComponent(settings.session)}`).catch(() => undefined)
    },
  }
}
