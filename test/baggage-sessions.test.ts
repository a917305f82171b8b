// Sessions named by W3C Baggage (issue 58, item 1): a server-rendered app instrumented with OpenTelemetry
// passes `baggage: sim-session=<id>` on with no app code, so the simulator reads it as it reads X-Sim-Session.
import { request as httpRequest } from 'node:http'
import { describe, expect, test } from 'vitest'
import { createSimulator } from '../src/index.js'
import { API, KEY, TRANSPORTS } from './support/harness.js'
import { exchange, parseRaw } from './support/raw-http.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in beforeAll: the journal below is read through /__sim too.
useAdminApi()

const statusesOf = (orders: { status: string }[]) => orders.map((order) => order.status)
const bodyOf = (text: string) => JSON.parse(text) as { code: string; message: string; status: number }

describe.each(TRANSPORTS)('$name', ({ name, use }) => {
  const simulate = use()

  test('a sim-session baggage member, among others with properties, selects the session as X-Sim-Session does', async () => {
    const api = simulate({ scenario: 'pending' })
    const baggage = 'userId=alice;p=1, sim-session = run-a ;q=2;r, tenant=t%201'
    expect((await api.cancel(1, { headers: [['baggage', baggage]] })).status).toBe(204)
    expect(statusesOf(api.sim.session('run-a').orders())[0]).toBe('cancelled')
    expect(statusesOf(api.sim.orders())[0]).toBe('pending')
    // The same session again, by the other header: one state.
    expect((await api.cancel(1, { headers: [['X-Sim-Session', 'run-a']] })).status).toBe(409)
    expect(
      api.sim
        .session('run-a')
        .journal.entries()
        .map(({ status, sessionHeader }) => ({ status, sessionHeader })),
    ).toEqual([
      { status: 204, sessionHeader: 'baggage' },
      { status: 409, sessionHeader: 'X-Sim-Session' },
    ])
    // A request naming no session is recorded without the field.
    expect((await api.list()).status).toBe(200)
    expect(api.sim.journal.entries()).toHaveLength(1)
    expect(api.sim.journal.entries()[0]).not.toHaveProperty('sessionHeader')
  })

  test('percent-encoded ids are decoded; two baggage headers are read as one list; the last sim-session member wins', async () => {
    const api = simulate({ scenario: 'pending' })
    expect((await api.cancel(1, { headers: [['baggage', 'sim-session=run%3A7']] })).status).toBe(204)
    expect(statusesOf(api.sim.session('run:7').orders())[0]).toBe('cancelled')
    const twice: [string, string][] = [
      ['baggage', 'a=1, sim-session=first'],
      ['baggage', 'b=2;p, sim-session=second'],
    ]
    expect((await api.cancel(2, { headers: twice })).status).toBe(204)
    expect(api.sim.sessions().map((session) => session.id)).toEqual(['run:7', 'second'])
  })

  test('X-Sim-Session wins over baggage', async () => {
    const api = simulate({ scenario: 'pending' })
    const both: [string, string][] = [
      ['X-Sim-Session', 'by-header'],
      ['baggage', 'sim-session=by-baggage'],
    ]
    expect((await api.cancel(1, { headers: both })).status).toBe(204)
    expect(api.sim.sessions().map((session) => session.id)).toEqual(['by-header'])
    expect(api.sim.session('by-header').journal.entries()[0]?.sessionHeader).toBe('X-Sim-Session')
    // Even a bad id in the baggage is not read when the header names the session.
    expect(
      (
        await api.list({
          headers: [
            ['X-Sim-Session', 'by-header'],
            ['baggage', 'sim-session=%ZZ'],
          ],
        })
      ).status,
    ).toBe(200)
  })

  test.each([
    ['empty', 'a=1, sim-session=, b=2', '""'],
    ['a bad escape', 'sim-session=%ZZ', '"%ZZ"'],
    ['a space', 'sim-session=a b;p', '"a b"'],
    ['an encoded space', 'sim-session=a%20b', '"a b"'],
    ['an encoded control character', 'sim-session=a%00b', '"a\\u0000b"'],
  ])(
    'a bad id in a sim-session member (%s) is the 400 invalid_request a bad X-Sim-Session gets, naming the member',
    async (_, baggage, shown) => {
      const api = simulate({ scenario: 'pending' })
      const response = await api.list({ headers: [['baggage', baggage]] })
      expect(response.status).toBe(400)
      expect(bodyOf(response.text)).toEqual({
        code: 'invalid_request',
        status: 400,
        message: `Invalid session id ${shown} in the baggage header's sim-session member: use 1 to 128 letters, digits and . _ : - characters.`,
      })
      expect(api.sim.sessions()).toEqual([])
      // Refused before any session: in the default journal, saying which header named the bad session.
      expect(api.sim.journal.entries().map(({ status, sessionHeader }) => ({ status, sessionHeader }))).toEqual([
        { status: 400, sessionHeader: 'baggage' },
      ])
    },
  )

  test('a malformed baggage header is ignored: the default state answers, never a 400 or 5xx', async () => {
    const api = simulate({ scenario: 'pending' })
    for (const baggage of [
      ',,;;==, =x, "quoted", sim-session, Sim-Session=s1, xsim-session=s2, a=sim-session',
      `${','.repeat(10_000)}sim-session=late`,
      `a=b;p, sim-session;p=1, ${'x'.repeat(5000)}`,
      `sim-session=${'x'.repeat(5000)}`,
      // 60 KiB of members, under every transport's header limit: read up to the bounds only.
      `${'k=v,'.repeat(15_000)}sim-session=late`,
    ]) {
      const response = await api.list({ headers: [['baggage', baggage]] })
      expect(response.status, baggage.slice(0, 80)).toBe(200)
    }
    expect(api.sim.sessions()).toEqual([])
    expect(api.sim.journal.entries().every((entry) => entry.sessionHeader === undefined)).toBe(true)
  })

  test('1 MiB of baggage members: answered at once and never a 5xx; the HTTP parsers refuse it with 431 first', async () => {
    const api = simulate({ scenario: 'pending' })
    const started = performance.now()
    const response = await api.list({ headers: [['baggage', `${'k=v,'.repeat(262_144)}sim-session=s1`]] })
    expect(performance.now() - started).toBeLessThan(2000)
    // msw hands the request over as it is; sim.fetch and the server bound the header section at 64 KiB.
    expect(response.status).toBe(name === 'in process (setupServer)' ? 200 : 431)
    expect(api.sim.sessions()).toEqual([])
  })

  test('a baggage member naming a new session needs an accepted key, as X-Sim-Session does', async () => {
    const api = simulate({ scenario: 'pending' })
    expect((await api.list({ key: null, headers: [['baggage', 'sim-session=s1']] })).status).toBe(401)
    expect(api.sim.sessions()).toEqual([])
  })

  test('with sessions off, a sim-session member is refused as X-Sim-Session is', async () => {
    const api = simulate({ scenario: 'pending', sessions: { max: 0 } })
    const byHeader = await api.list({ headers: [['X-Sim-Session', 's1']] })
    const byBaggage = await api.list({ headers: [['baggage', 'sim-session=s1']] })
    expect([byHeader.status, byBaggage.status]).toEqual([400, 400])
    expect(bodyOf(byHeader.text).message).toBe('Sessions are turned off (sessions.max is 0).')
    expect(bodyOf(byBaggage.text).message).toBe(
      `Sessions are turned off (sessions.max is 0). The baggage header's sim-session member named session "s1".`,
    )
    // Without the member, baggage changes nothing.
    expect((await api.list({ headers: [['baggage', 'a=1']] })).status).toBe(200)
  })
})

test.each([
  ['control characters', 'a=\u0001\u0002\u007f;\u001f, sim-session=ok'],
  ['a bare member and controls', 'sim-session;\u0007, =, k=v'],
])('in process, %s in baggage are ignored with the rest of a malformed member', async (_, baggage) => {
  const sim = createSimulator({ scenario: 'pending' })
  const response = await sim.fetch(`${API}/store/orders`, { headers: { Authorization: `Bearer ${KEY}`, baggage } })
  expect(response.status).toBe(200)
  // The well-formed member beside them still names its session.
  expect(sim.sessions().map((session) => session.id)).toEqual(baggage.includes('sim-session=ok') ? ['ok'] : [])
})

describe('over HTTP (standalone server)', () => {
  const serve = useAppServers()

  /** A request with each baggage value on its own header line, as a proxy may forward them. */
  function sendLines(origin: string, lines: string[]): Promise<number> {
    return new Promise((resolve, reject) => {
      const { hostname, port } = new URL(origin)
      const req = httpRequest(
        {
          host: hostname,
          port,
          path: '/v1/store/orders/1',
          method: 'DELETE',
          agent: false,
          headers: { Authorization: `Bearer ${KEY}`, baggage: lines },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', reject)
      req.end()
    })
  }

  test('baggage on several header lines is one list', async () => {
    const { origin, sim } = await serve({ scenario: 'pending', basePath: '/v1' })
    expect(await sendLines(origin, ['a=1', 'sim-session=lines;p', 'b=2'])).toBe(204)
    expect(sim.session('lines').orders()[0]?.status).toBe('cancelled')
    expect(sim.orders()[0]?.status).toBe('pending')
  })

  test("control characters in any header over HTTP are the server's parser's 400, before baggage is read", async () => {
    const { origin, sim } = await serve({ scenario: 'pending', basePath: '/v1' })
    const answer = await exchange(
      origin,
      `GET /v1/store/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nbaggage: a=\u0001\u007f, sim-session=s1;\u001f\r\nConnection: close\r\n\r\n`,
    )
    expect(parseRaw(answer)).toMatchObject({ status: 400, body: { code: 'invalid_request', message: 'The request is not valid HTTP.' } })
    expect(sim.sessions()).toEqual([])
  })

  test('a header too large for the server is refused by it with a 431, never a 5xx', async () => {
    const { origin, sim } = await serve({ scenario: 'pending', basePath: '/v1' })
    const response = await fetch(`${origin}/v1/store/orders`, {
      headers: { Authorization: `Bearer ${KEY}`, baggage: `${'k=v,'.repeat(262_144)}sim-session=s1` },
    })
    expect(response.status).toBe(431)
    expect(sim.sessions()).toEqual([])
  })

  test('the journal names the header through the admin API, and the admin API reads X-Sim-Session only', async () => {
    const { origin, sim } = await serve({ scenario: 'pending', basePath: '/v1' })
    const auth = { Authorization: `Bearer ${KEY}` }
    expect((await fetch(`${origin}/v1/store/orders`, { headers: { ...auth, baggage: 'sim-session=s1' } })).status).toBe(200)
    // Checked against the admin document by the setup file: the field is described there.
    const journal = await fetch(`${origin}/__sim/requests`, { headers: { 'X-Sim-Session': 's1' } })
    expect(((await journal.json()) as { sessionHeader?: string }[]).map((entry) => entry.sessionHeader)).toEqual(['baggage'])
    // An admin call with only baggage acts on the default state, and makes no session.
    const reset = await fetch(`${origin}/__sim/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', baggage: 'sim-session=s2' },
      body: JSON.stringify({ scenario: 'shipped' }),
    })
    expect(reset.status).toBe(200)
    expect(sim.scenario().name).toBe('shipped')
    expect(sim.sessions().map((session) => session.id)).toEqual(['s1'])
  })

  test.each(['/v1/store/orders', '/__sim/state'])('a preflight to %s asking for baggage and trace headers allows them', async (path) => {
    const { origin } = await serve({ scenario: 'pending', basePath: '/v1' })
    const response = await fetch(`${origin}${path}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization, baggage, traceparent, tracestate, x-sim-session',
      },
    })
    expect(response.status).toBe(204)
    const allowed = (response.headers.get('Access-Control-Allow-Headers') ?? '').split(', ')
    expect(allowed).toEqual(['Authorization', 'Content-Type', 'baggage', 'traceparent', 'tracestate', 'x-sim-session'])
  })
})
