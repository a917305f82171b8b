import type { BrowserContext, Route } from '@playwright/test'
import type { Fault } from '../../core/controls/faults.js'
import type { Order } from '../../core/glossary.js'
import type { ClockState } from '../../core/lifecycle/order-lifecycle.js'
import { SESSION_HEADER } from '../../core/simulator/sessions.js'
import type { SimulatorState } from '../../core/simulator/types.js'
import type { JournalEntry } from '../../core/state/journal.js'
import type { PactDocument } from '../../core/pact/pact-document.js'
import type { Coverage } from '../../core/outcome-coverage/coverage-counter.js'
import { endFixtureSession, fixtureAdminClient, SetupProblem } from './admin-client.js'
import { withSessionBaggage } from './session-baggage.js'
import type { FixtureSettings, SimulatorFixture } from './simulator-fixture.js'

/**
 * A session of the running simulator for one test: opened and reset to the
 * test's scenario, and joined by every request the browser context sends to
 * the simulator's origin or the app's own (`baseURL`): Playwright adds
 * `X-Sim-Session` and `baggage: sim-session=<id>` below the page, so the app
 * and its CORS preflights are untouched, and a server-rendering app that
 * propagates W3C Baggage (OpenTelemetry) passes the session on. Other origins
 * get neither: an unexpected header would cost them a preflight. Closing ends
 * the session, as does a failed opening, so that a long run never fills the
 * server's sessions.
 */
export async function openServerFixture(
  context: BrowserContext,
  settings: FixtureSettings,
): Promise<{ sim: SimulatorFixture; close(): Promise<void> }> {
  const { origin } = settings.url
  const admin = fixtureAdminClient(origin, settings.session, settings.adminToken)
  const end = () => endFixtureSession(origin, settings.session, settings.adminToken)
  const { appOrigin } = settings
  // One handler for both origins, which may be one.
  const matches = (url: URL) => url.origin === origin || url.origin === appOrigin
  // fallback, not continue: the test's own routes still see the request, with the headers.
  const join = async (route: Route) => {
    const headers = await route.request().allHeaders()
    await route.fallback({
      headers: {
        ...headers,
        [SESSION_HEADER.toLowerCase()]: settings.session,
        baggage: withSessionBaggage(headers['baggage'], settings.session),
      },
    })
  }
  try {
    await admin.reset({ body: { scenario: settings.scenario } })
    await context.route(matches, join)
  } catch (error) {
    // A refused reset (an unknown scenario) opened the session all the same; the test fails with its own error, not this one's.
    if (!(error instanceof SetupProblem)) await end().catch(() => undefined)
    throw error
  }

  // The client's types are the admin document's; the fixture's, the simulator's own: the same JSON.
  const state = async () => (await admin.getState()) as unknown as SimulatorState
  const sim: SimulatorFixture = {
    session: settings.session,
    mode: 'server',
    url: settings.url.href,
    orders: async () => (await state()).orders,
    state,
    requests: async (filter = {}) => (await admin.listRequests({ query: filter as Record<string, string> })) as JournalEntry[],
    clearRequests: () => admin.clearRequests(),
    coverage: async () => (await admin.getCoverage()) as Coverage,
    clearCoverage: () => admin.clearCoverage(),
    pact: async ({ consumer, provider }) => (await admin.getPact({ query: { consumer, provider } })) as PactDocument,
    reset: async (scenario, options = {}) => {
      await admin.reset({ body: { scenario, ...options } as { scenario?: string } })
    },
    updateOrder: async (orderId, patch) => (await admin.updateOrder({ orderId, body: patch as never })) as Order,
    addOrder: async (order) => (await admin.addOrder({ body: order as never })) as Order,
    removeOrder: (orderId) => admin.removeOrder({ orderId }),
    advanceClock: async (advance) => (await admin.advanceClock({ body: { advance } })) as ClockState,
    clock: async () => (await admin.getClock()) as ClockState,
    addFault: async (fault) => (await admin.addFault({ body: fault as never })) as Fault,
    faults: async () => (await admin.listFaults()) as Fault[],
    clearFaults: () => admin.clearFaults(),
    setLatency: async (latency) => {
      await admin.setLatency({ body: latency as never })
    },
    setRateLimit: async (limit) => {
      await admin.setRateLimit({ body: limit as never })
    },
  }
  return {
    sim,
    async close() {
      try {
        // First, so that what the page still sends no longer reopens the session.
        await context.unroute(matches, join)
      } finally {
        // Best effort: the test has passed or failed on its own; the server drops a session left open once it is idle.
        await end().catch((error: Error) =>
          settings.warn(`${error.message} The simulator drops it once idle (--session-idle); until then it counts against --max-sessions.`),
        )
      }
    },
  }
}
