// Issue 58, item 2: in 'server' mode the Playwright fixture's page sends the session to the app's own origin (baseURL)
// and to the simulator, as X-Sim-Session and as `baggage: sim-session=<id>`, so that a server-rendering app that
// propagates W3C Baggage passes it on; a third origin gets neither, since an unexpected header would cost it a preflight.
import type { IncomingHttpHeaders, RequestListener } from 'node:http'
import fc from 'fast-check'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { baggageSessionId } from '../src/core/simulator/session-source.js'
import { createSimulatorApp } from '../src/server.js'
import { openSimulatorFixture } from '../src/transports/playwright/open-fixture.js'
import { appOriginOf, withSessionBaggage } from '../src/transports/playwright/session-baggage.js'
import { explainBrowserSkip, launchChromium, SKIP_BROWSER_TESTS } from './support/chromium.js'
import { type Listening, listen, useAdminApi } from './support/serve.js'

describe('the baggage header the fixture sends', () => {
  test('the session comes first, percent-encoded; the page’s own members stay as sent, its own sim-session and empty members go', () => {
    expect(withSessionBaggage(undefined, 'pw-0-0-abc')).toBe('sim-session=pw-0-0-abc')
    expect(withSessionBaggage(' \t', 'pw-0-0-abc')).toBe('sim-session=pw-0-0-abc')
    expect(withSessionBaggage('userId=alice;p=1, sim-session = stale ;q, ,tenant=t%201', 'run:1')).toBe(
      'sim-session=run%3A1, userId=alice;p=1, tenant=t%201',
    )
    // Keys are case-sensitive and whole: these are the app's members, not the session.
    expect(withSessionBaggage('Sim-Session=a, xsim-session=b, sim-sessions=c, foo=sim-session', 's')).toBe(
      'sim-session=s, Sim-Session=a, xsim-session=b, sim-sessions=c, foo=sim-session',
    )
    // A member without a value, or with only a property, is kept unless its key is the session's.
    expect(withSessionBaggage('flag, sim-session;p, sim-session', 's')).toBe('sim-session=s, flag')
  })

  test('whatever the page sent, the simulator reads the fixture’s session, even past the W3C limits of 8192 bytes and 180 members', () => {
    const junk = fc.stringMatching(/^[ -~\t]{0,300}$/)
    const id = fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/)
    fc.assert(
      fc.property(
        fc.option(junk, { nil: undefined }),
        id,
        (sent, session) => baggageSessionId(withSessionBaggage(sent, session)) === session,
      ),
    )
    const huge = Array.from({ length: 500 }, (_, index) => `k${index}=${'v'.repeat(40)}`).join(',')
    expect(baggageSessionId(withSessionBaggage(`${huge},sim-session=stale`, 'mine'))).toBe('mine')
  })

  test("the app's origin is baseURL's when it is an absolute http(s) URL; otherwise there is none", () => {
    expect(appOriginOf('http://user:secret@127.0.0.1:4173/app/?q=1#top')).toBe('http://127.0.0.1:4173')
    expect(appOriginOf('https://shop.example')).toBe('https://shop.example')
    for (const bad of [
      undefined,
      '',
      '/relative',
      'not a url',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,x',
      'http://\u0000x',
    ])
      expect(appOriginOf(bad), String(bad)).toBeNull()
  })
})

interface Seen {
  method: string
  path: string
  session: string | undefined
  baggage: string | undefined
}

const joined = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value)

const seenOf = (method: string | undefined, path: string | undefined, headers: IncomingHttpHeaders): Seen => ({
  method: method ?? '',
  path: path ?? '',
  session: joined(headers['x-sim-session']),
  baggage: joined(headers['baggage']),
})

/** A listener that records what each request carried before `answer` answers it. */
function recording(seen: Seen[], answer: RequestListener): RequestListener {
  return (request, response) => {
    seen.push(seenOf(request.method, request.url, request.headers))
    answer(request, response)
  }
}

const PAGE = '<!doctype html><title>app</title><p>orders</p>'

explainBrowserSkip('the Chromium tests of the Playwright fixture’s baggage')

describe.skipIf(SKIP_BROWSER_TESTS)("the fixture's page in Chromium (server mode): who gets the session", () => {
  // The simulator's admin app (the fixture resets and ends its session through it) loads in set-up.
  useAdminApi()
  const atSim: Seen[] = []
  const atApp: Seen[] = []
  const atThird: Seen[] = []
  let browser: Browser
  let simulator: Listening
  let app: Listening
  let third: Listening
  let closeSim: () => void

  beforeAll(async () => {
    const { listener, sim } = createSimulatorApp({ scenario: 'pending' })
    closeSim = () => sim.close()
    simulator = await listen(recording(atSim, listener))
    app = await listen(
      recording(atApp, (request, response) => {
        response.writeHead(200, { 'content-type': request.url === '/' ? 'text/html' : 'application/json' })
        response.end(request.url === '/' ? PAGE : '{}')
      }),
    )
    // A third party the page calls with a simple request: any extra header would make Chromium send a preflight first.
    third = await listen(
      recording(atThird, (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' })
        response.end('ok')
      }),
    )
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await Promise.all([simulator?.close(), app?.close(), third?.close()])
    closeSim?.()
  })

  /** A fixture as src/playwright.ts opens it, in a context whose baseURL is `baseURL`. */
  async function openFixture(baseURL: string) {
    const context: BrowserContext = await browser.newContext({ baseURL })
    const opened = await openSimulatorFixture(
      // playwright-core's context is @playwright/test's: the one the fixture receives from Playwright.
      context as unknown as Parameters<typeof openSimulatorFixture>[0],
      {
        scenario: 'pending',
        simulatorUrl: `${simulator.origin}/v1`,
        simulatorMode: 'server',
        simulatorAdminToken: undefined,
        pact: undefined,
        simulatorCoverage: false,
        baseURL,
      },
      { workerIndex: 0, retry: 0, annotations: [] },
    )
    return { context, ...opened }
  }

  test('the app and the simulator get X-Sim-Session and baggage (merged with the page’s own); a third origin gets neither', async () => {
    const { context, sim, close } = await openFixture(app.origin)
    const page = await context.newPage()
    await page.goto('/')
    const statuses = await page.evaluate(
      async ([api, other]) => {
        const orders = await fetch(`${api}/store/orders`, { headers: { Authorization: 'Bearer petstore-test-key' } })
        const own = await fetch('/api/cart', { headers: { baggage: 'userId=alice;p=1, sim-session=stale' } })
        const elsewhere = await fetch(`${other}/pixel`)
        return [orders.status, own.status, elsewhere.status]
      },
      [`${simulator.origin}/v1`, third.origin] as const,
    )
    expect(statuses).toEqual([200, 200, 200])
    const own = `sim-session=${sim.session}`
    expect(atApp.filter(({ path }) => path === '/' || path === '/api/cart')).toEqual([
      { method: 'GET', path: '/', session: sim.session, baggage: own },
      { method: 'GET', path: '/api/cart', session: sim.session, baggage: `${own}, userId=alice;p=1` },
    ])
    // Playwright answers the preflight of a routed request itself: the simulator sees the call alone.
    expect(atSim.filter(({ path }) => path === '/v1/store/orders')).toEqual([
      { method: 'GET', path: '/v1/store/orders', session: sim.session, baggage: own },
    ])
    expect(atThird).toEqual([{ method: 'GET', path: '/pixel', session: undefined, baggage: undefined }])
    expect(await sim.requests({ operation: 'listOrders' })).toEqual([
      expect.objectContaining({ status: 200, sessionHeader: 'X-Sim-Session' }),
    ])

    // Closed, the fixture no longer touches the page's requests.
    await close()
    atApp.length = 0
    await page.evaluate(() => fetch('/after').then((answer) => answer.status))
    expect(atApp).toEqual([{ method: 'GET', path: '/after', session: undefined, baggage: undefined }])
    await context.close()
  })

  test('an app served by the simulator’s own origin: one handler, one session member', async () => {
    const { context, sim, close } = await openFixture(simulator.origin)
    const page = await context.newPage()
    atSim.length = 0
    await page.goto('/__sim/scenarios')
    const status = await page.evaluate(() =>
      fetch('/v1/store/orders', { headers: { Authorization: 'Bearer petstore-test-key', baggage: 'sim-session=x, a=1' } }).then(
        (answer) => answer.status,
      ),
    )
    expect(status).toBe(200)
    expect(atSim.filter(({ path }) => path === '/__sim/scenarios' || path === '/v1/store/orders')).toEqual([
      { method: 'GET', path: '/__sim/scenarios', session: sim.session, baggage: `sim-session=${sim.session}` },
      { method: 'GET', path: '/v1/store/orders', session: sim.session, baggage: `sim-session=${sim.session}, a=1` },
    ])
    await close()
    await context.close()
  })
})
