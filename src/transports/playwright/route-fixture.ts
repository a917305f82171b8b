import type { BrowserContext, Request, Route } from '@playwright/test'
import { apiCorsHeaders } from '../../core/cors.js'
import { isUnderBase, parseApiBase } from '../../core/operations/routing.js'
import { bodyBytes, type Reply, type SimRequest } from '../../core/reply.js'
import { internalsOf } from '../../core/simulator/internals.js'
import { SESSION_HEADER } from '../../core/simulator/sessions.js'
import { lazyGeneration, withGenerator } from '../../core/scenario/order-generation.js'
import { createSimulatorCore } from '../../core/simulator/simulator.js'
import type { SimulatorView } from '../../core/simulator/types.js'
import { nodePlatform } from '../../platform/node/node-platform.js'
import { type FixtureSettings, type FixtureVerbs, type SimulatorFixture, UNOFFERED_VERBS } from './simulator-fixture.js'

/** What the operations read of a routed request; it acts on the test's session, whatever the page sent. */
async function fromRoute(request: Request, url: URL, session: string, signal: AbortSignal): Promise<SimRequest> {
  const headers = await request.allHeaders()
  const body = request.postDataBuffer()
  const sessionHeader = SESSION_HEADER.toLowerCase()
  return {
    method: request.method(),
    target: url.pathname + url.search,
    header: (name) => {
      const lower = name.toLowerCase()
      return lower === sessionHeader ? session : (headers[lower] ?? null)
    },
    signal,
    bodyExceeds: (limit) => (body?.length ?? 0) > limit,
    headerPairs: () => Object.entries(headers),
    body: async () => (body === null ? null : new Uint8Array(body)),
  }
}

/** Sends a reply through the route. Playwright cannot stream a body, so a paced one comes whole once its time has passed. */
async function fulfill(route: Route, reply: Reply, origin: string | undefined): Promise<void> {
  if (reply.networkError !== undefined) return route.abort('connectionreset')
  if (reply.paceMs !== undefined) await new Promise((resolve) => setTimeout(resolve, reply.paceMs))
  const bodyless = reply.body === null || route.request().method() === 'HEAD'
  await route.fulfill({
    status: reply.status,
    headers: { ...reply.headers, ...apiCorsHeaders(origin) },
    ...(bodyless ? {} : { body: Buffer.from(bodyBytes(reply.body as Uint8Array | string)) }),
  })
}

/**
 * The fixture's verbs over an in-process view, each forwarded as it stands
 * (every verb the view has but those the fixture leaves out), its result as
 * a promise: the same answers as over HTTP.
 */
function viewFixture(view: SimulatorView, settings: FixtureSettings): SimulatorFixture {
  const unoffered: readonly string[] = UNOFFERED_VERBS
  const verbs = Object.keys(view)
    .filter((name) => !unoffered.includes(name))
    .map((name) => {
      const verb = view[name as keyof SimulatorView] as (...args: unknown[]) => unknown
      return [name, async (...args: unknown[]) => Reflect.apply(verb, view, args)]
    })
  // Built from the view's own verbs, which FixtureVerbs lists by type.
  const forwarded = Object.fromEntries(verbs) as FixtureVerbs
  return {
    ...forwarded,
    session: settings.session,
    mode: 'route',
    url: settings.url.href,
    clearRequests: async () => view.journal.clear(),
    reset: async (scenario, options = {}) => view.reset(scenario, options),
  }
}

/**
 * A simulator inside the test process, answering the browser context's
 * requests under the simulator's URL through Playwright's routing: no server,
 * no service worker, no msw in the app. CORS preflights never reach a route
 * (Playwright answers them); the answers carry the CORS headers the server's would.
 */
export async function openRouteFixture(
  context: BrowserContext,
  settings: FixtureSettings,
): Promise<{ sim: SimulatorFixture; close(): Promise<void> }> {
  // Faker is imported only for a scenario that generates orders not made ahead of time.
  const generation = lazyGeneration(async () => (await import('../../core/scenario/generate-orders.js')).generateOrders)
  const options = { scenario: settings.scenario, baseUrl: settings.url.href }
  const core = await withGenerator(generation, () => createSimulatorCore(options, nodePlatform(generation)))
  const { dispatcher } = internalsOf(core)
  const base = parseApiBase(settings.url.href)
  // Ends the latencies and hangs still pending when the test is over.
  const done = new AbortController()

  const matches = (url: URL) => isUnderBase(url, base)
  const answer = async (route: Route) => {
    const url = new URL(route.request().url())
    const request = await fromRoute(route.request(), url, settings.session, done.signal)
    const reply = dispatcher.route(request, url)
    if (reply === null) return route.fallback()
    try {
      await fulfill(route, await reply, request.header('Origin') ?? undefined)
    } catch (error) {
      // Once the test is over its page may be gone: nothing is left to answer.
      if (!done.signal.aborted) throw error
    }
  }
  await context.route(matches, answer)
  return {
    sim: viewFixture(core.session(settings.session), settings),
    async close() {
      done.abort()
      core.close()
      await context.unroute(matches, answer)
    },
  }
}
