// The findings of an attack on `npm start` with default flags, one test each:
// what a web page, a rebinding name or a flood of requests could do, and what
// the server does now.
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { createSimulator, ErrorCode } from '../src/index.js'
import { MAX_FAULTS } from '../src/core/controls/faults.js'
import { MAX_UNKNOWN_KEY_WINDOWS } from '../src/core/controls/rate-limit.js'
import { internalsOf } from '../src/core/simulator/internals.js'
import { MAX_JOURNAL_BYTES } from '../src/core/state/journal.js'
import { startSimulatorServer, type RunningSimulator } from '../src/server.js'
import { createHttpServer } from '../src/transports/node/http-server.js'
import { KEY } from './support/harness.js'
import { exchange, parseRaw, send } from './support/raw-http.js'
import { useAdminApi, useAppServers } from './support/serve.js'
import { testTime } from './support/test-time.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

const serve = useAppServers()
const auth = { Authorization: `Bearer ${KEY}` }
const evil = 'https://evil.example'

const started: RunningSimulator[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((running) => running.close()))
})
async function start(options: Parameters<typeof startSimulatorServer>[0]): Promise<RunningSimulator> {
  const running = await startSimulatorServer({ port: 0, ...options })
  started.push(running)
  return running
}

describe('any web page could drive the admin API', () => {
  test('a plain HTML form from another site (text/plain, no preflight) cannot reset: 403 forbidden_origin, state unchanged', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: auth })
    const answer = await send(origin, '/__sim/reset', {
      method: 'POST',
      headers: { Origin: evil, 'Content-Type': 'text/plain', 'Sec-Fetch-Site': 'cross-site' },
      body: '{"scenario":"shipped"}',
    })
    expect(answer.status).toBe(403)
    expect(JSON.parse(answer.body)).toMatchObject({ code: ErrorCode.ForbiddenOrigin, status: 403 })
    expect(sim.scenario().name).toBe('pending')
    expect(sim.orders().find((order) => order.id === 1)?.status).toBe('cancelled')
  })

  test('nor add a fault, nor read the state, the journal or the sessions, whatever the method', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    for (const [method, path] of [
      ['POST', '/__sim/faults'],
      ['GET', '/__sim/state'],
      ['GET', '/__sim/requests'],
      ['GET', '/__sim/sessions'],
      ['PUT', '/__sim/latency'],
      ['OPTIONS', '/__sim/reset'],
    ] as const) {
      const answer = await send(origin, path, {
        method,
        headers: { Origin: evil, 'Content-Type': 'application/json' },
        body: method === 'POST' ? '{"operation":"cancelOrder","kind":"network"}' : method === 'PUT' ? '5000' : '',
      })
      expect(answer.status, `${method} ${path}`).toBe(403)
      expect(answer.headers['access-control-allow-origin'], `${method} ${path}`).toBeUndefined()
      expect(answer.body).not.toContain(KEY)
    }
    expect(sim.faults()).toEqual([])
    expect(sim.latency()).toBeNull()
  })

  test('Origin: null (a sandboxed page, a file) and cross-site fetch metadata without an Origin are refused too', async () => {
    const { origin } = await serve()
    expect((await send(origin, '/__sim/state', { headers: { Origin: 'null' } })).status).toBe(403)
    expect((await send(origin, '/__sim/state', { headers: { 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(403)
  })

  test('a page on a loopback origin (any port) may call it, without credentialed CORS; the order API still answers any origin', async () => {
    const { origin } = await serve()
    const admin = await send(origin, '/__sim/state', { headers: { Origin: 'http://localhost:5173' } })
    expect(admin.status).toBe(200)
    expect(admin.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(admin.headers['access-control-allow-credentials']).toBeUndefined()
    const api = await send(origin, '/v1/store/orders', { headers: { Origin: evil, ...auth } })
    expect(api.status).toBe(200)
    expect(api.headers['access-control-allow-origin']).toBe(evil)
  })

  test('--admin-origins (adminOrigins) lets a named dashboard in, and only it', async () => {
    const { origin } = await serve({ adminOrigins: ['https://qa.example.test'] })
    expect((await send(origin, '/__sim/state', { headers: { Origin: 'https://qa.example.test' } })).status).toBe(200)
    expect((await send(origin, '/__sim/state', { headers: { Origin: evil } })).status).toBe(403)
  })

  test('DNS rebinding: a Host naming another site is refused with 403 forbidden_host on the API, the admin API and the demo, before anything runs', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    for (const [method, path] of [
      ['DELETE', '/v1/store/orders/1'],
      ['GET', '/__sim/state'],
      ['GET', '/__sim/demo/'],
      ['POST', '/__sim/reset'],
    ] as const) {
      const answer = await send(origin, path, { method, headers: { Host: 'rebind.evil.example:4010', ...auth } })
      expect(answer.status, `${method} ${path}`).toBe(403)
      const body = JSON.parse(answer.body) as { code: string; message: string }
      expect(body.code).toBe(ErrorCode.ForbiddenHost)
      expect(body.message).toContain('--allowed-hosts rebind.evil.example')
    }
    expect(sim.orders().find((order) => order.id === 1)?.status).toBe('pending')
    expect(sim.journal.entries()).toEqual([])
  })

  test('--allowed-hosts (allowedHosts) adds names; "all" turns the check off', async () => {
    const { origin } = await serve({ allowedHosts: ['sim.test'] })
    expect((await send(origin, '/v1/store/orders', { headers: { Host: 'sim.test:4010', ...auth } })).status).toBe(200)
    expect((await send(origin, '/v1/store/orders', { headers: { Host: 'other.test', ...auth } })).status).toBe(403)
    const open = await serve({ allowedHosts: 'all' })
    expect((await send(open.origin, '/v1/store/orders', { headers: { Host: 'other.test', ...auth } })).status).toBe(200)
  })
})

describe('unauthenticated requests could exhaust memory', () => {
  test('requests without an accepted key never create sessions, whatever X-Sim-Session they send', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    for (let index = 0; index < 20; index++) {
      const answer = await send(origin, `/v1/x?${'q'.repeat(60_000)}`, { headers: { 'X-Sim-Session': `attacker-${index}` } })
      expect(answer.status).toBe(404)
    }
    expect(
      (await send(origin, '/v1/store/orders', { headers: { 'X-Sim-Session': 'attacker-x', Authorization: 'Bearer wrong' } })).status,
    ).toBe(401)
    expect(sim.sessions()).toEqual([])
    // With the key the session is made, as before.
    expect((await send(origin, '/v1/store/orders', { headers: { 'X-Sim-Session': 'mine', ...auth } })).status).toBe(200)
    expect(sim.sessions().map((session) => session.id)).toEqual(['mine'])
  })

  test('the journal keeps a long path cut with a marker, and stays within its byte budget', async () => {
    const { origin, sim } = await serve()
    for (let index = 0; index < 300; index++) await send(origin, `/v1/store/orders?${index}&${'q'.repeat(60_000)}`, { headers: auth })
    const entries = sim.journal.entries()
    expect(entries.at(-1)?.path).toMatch(/^\/v1\/store\/orders\?299&q+…\[cut: \d+ more characters\]$/)
    expect(entries.reduce((sum, entry) => sum + entry.path.length + 128, 0)).toBeLessThanOrEqual(MAX_JOURNAL_BYTES)
  })
})

describe('other unbounded state', () => {
  test('the bound on rate-limit windows of unknown tokens is the one the flood test goes past', () => {
    expect(MAX_UNKNOWN_KEY_WINDOWS).toBe(10_000)
  })

  test("a flood of distinct long tokens past the window bound does not lift the real key's rate limit", { timeout: 30_000 }, async () => {
    // The window on the test's time: however long the flood takes on a busy machine, it stays the same window.
    const sim = createSimulator({ scenario: 'pending', rateLimit: '3/60s', time: testTime() })
    const list = (token: string) =>
      internalsOf(sim).dispatcher.route(
        {
          method: 'GET',
          target: '/v1/store/orders',
          header: (name: string) => (name === 'Authorization' ? `Bearer ${token}` : null),
          signal: undefined,
          bodyExceeds: () => false,
          headerPairs: () => [],
          body: async () => null,
        },
        new URL('http://localhost/v1/store/orders'),
      )
    for (let index = 0; index < 3; index++) expect((await list(KEY))?.status).toBe(200)
    expect((await list(KEY))?.status).toBe(429)
    const junk = 'j'.repeat(2_000)
    // 10,100: past the 10,000 windows kept (MAX_UNKNOWN_KEY_WINDOWS), where the map used to be emptied.
    for (let index = 0; index < 10_100; index++) await list(`${index}${junk}`)
    expect((await list(KEY))?.status).toBe(429)
  })

  test("a fault's orderId must be an int64 (400 for a million digits), and past the documented number of active faults the next is refused", async () => {
    const { origin, sim } = await serve()
    const post = (body: unknown) => fetch(`${origin}/__sim/faults`, { method: 'POST', body: JSON.stringify(body) })
    const huge = await post({ operation: 'cancelOrder', kind: 'network', orderId: '9'.repeat(1_000_000) })
    expect(huge.status).toBe(400)
    expect(((await huge.json()) as { message: string }).message).toMatch(/"orderId" must be an int64.*1000000 characters/)
    for (let index = 0; index < MAX_FAULTS; index++)
      expect((await post({ operation: 'cancelOrder', kind: 'status', orderId: index })).status).toBe(201)
    const over = await post({ operation: 'cancelOrder', kind: 'status' })
    expect(over.status).toBe(400)
    expect(((await over.json()) as { message: string }).message).toContain(`At most ${MAX_FAULTS} faults`)
    expect(sim.faults()).toHaveLength(MAX_FAULTS)
  })

  test('idle sessions expire without a walk of all of them, and one used again is answered as new and marked recreated', async () => {
    const time = testTime()
    const sim = createSimulator({ scenario: 'pending', sessions: { idleSeconds: 0.05 }, time })
    sim.session('old').reset('shipped')
    time.advance(80)
    sim.session('fresh')
    expect(sim.sessions().map((session) => session.id)).toEqual(['fresh'])
    sim.session('old')
    expect(sim.sessions().find((session) => session.id === 'old')).toMatchObject({ scenario: 'pending', recreated: 'expired' })
  })

  test('an admin call that fails leaves no session behind: a bad reset in a new session does not count against --max-sessions', async () => {
    const { origin } = await serve({ scenario: 'pending', sessions: { max: 1 } })
    const reset = (session: string, scenario: string) =>
      fetch(`${origin}/__sim/reset`, { method: 'POST', headers: { 'X-Sim-Session': session }, body: JSON.stringify({ scenario }) })
    for (let attempt = 0; attempt < 3; attempt++) expect((await reset(`bad-${attempt}`, 'no-such-scenario')).status).toBe(400)
    expect(await (await fetch(`${origin}/__sim/sessions`)).json()).toEqual([])
    expect((await reset('good', 'shipped')).status).toBe(200)
    // A failing call on a session that was there before leaves it as it was.
    expect((await reset('good', 'no-such-scenario')).status).toBe(400)
    const sessions = (await (await fetch(`${origin}/__sim/sessions`)).json()) as { id: string; scenario: string }[]
    expect(sessions.map((session) => [session.id, session.scenario])).toEqual([['good', 'shipped']])
  })

  test('at --max-sessions a new session is refused with 503 and Retry-After; the sessions in use keep their state until ended', async () => {
    const { origin } = await serve({ scenario: 'pending', sessions: { max: 2 } })
    const cancel = (session: string) =>
      fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: { ...auth, 'X-Sim-Session': session } })
    const list = (session: string) => fetch(`${origin}/v1/store/orders`, { headers: { ...auth, 'X-Sim-Session': session } })
    expect((await cancel('a')).status).toBe(204)
    expect((await list('b')).status).toBe(200)

    const refused = await list('c')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('Retry-After')).toMatch(/^[1-9][0-9]*$/)
    const body = (await refused.json()) as { code: string; message: string }
    expect(body).toMatchObject({ code: ErrorCode.TooManySessions, status: 503 })
    expect(body.message).toContain('DELETE /__sim/sessions/{id}')
    // a's cancel still holds: the order is not pending any more.
    expect((await cancel('a')).status).toBe(409)

    expect((await fetch(`${origin}/__sim/sessions/b`, { method: 'DELETE' })).status).toBe(204)
    expect((await list('c')).status).toBe(200)
    const sessions = (await (await fetch(`${origin}/__sim/sessions`)).json()) as { id: string; recreated: string | null }[]
    expect(sessions.map((session) => [session.id, session.recreated])).toEqual([
      ['a', null],
      ['c', null],
    ])
  })
})

describe('no 500 for client input', () => {
  test('a 200,000-deep JSON body on admin PUT and POST is a 400 Error body', async () => {
    const { origin } = await serve()
    for (const [method, path] of [
      ['PUT', '/__sim/latency'],
      ['POST', '/__sim/faults'],
      ['POST', '/__sim/reset'],
      ['PUT', '/__sim/rate-limit'],
    ] as const) {
      const response = await fetch(`${origin}${path}`, { method, body: `${'['.repeat(200_000)}${']'.repeat(200_000)}` })
      expect(response.status, `${method} ${path}`).toBe(400)
      expect((await response.json()) as unknown).toMatchObject({ code: ErrorCode.InvalidRequest, status: 400 })
    }
  })

  test('bad percent-encoding in an admin path parameter is a 400 Error body', async () => {
    const { origin } = await serve()
    for (const path of ['/__sim/sessions/%zz', '/__sim/faults/%E0%A4%A']) {
      const response = await fetch(`${origin}${path}`, { method: 'DELETE' })
      expect(response.status, path).toBe(400)
      expect((await response.json()) as unknown).toMatchObject({ code: ErrorCode.InvalidRequest, status: 400 })
    }
  })

  test('a Host with a path in it never becomes part of the route: 400, and the order is untouched', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const answer = await send(origin, '/foo', { method: 'DELETE', headers: { Host: 'x/v1/store/orders/2?', ...auth } })
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body)).toMatchObject({ code: ErrorCode.InvalidRequest })
    expect(sim.orders().find((order) => order.id === 2)?.status).toBe('pending')
  })

  test('an absolute-form request-target is a 400 Error body: routing reads the path only', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const raw = parseRaw(
      await exchange(
        origin,
        'DELETE http://127.0.0.1/v1/store/orders/2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer petstore-test-key\r\nConnection: close\r\n\r\n',
      ),
    )
    expect(raw.status).toBe(400)
    expect(raw.body).toMatchObject({ code: ErrorCode.InvalidRequest, status: 400 })
    expect(sim.orders().find((order) => order.id === 2)?.status).toBe('pending')
  })

  test('Node-level errors answer with an Error body: no Host 400, Expect: bogus 417, a header timeout 408', async () => {
    const { origin } = await serve()
    const noHost = parseRaw(await exchange(origin, 'GET /v1/store/orders HTTP/1.1\r\nConnection: close\r\n\r\n'))
    expect(noHost).toMatchObject({ status: 400, contentType: 'application/json', body: { code: ErrorCode.InvalidRequest } })
    const expect417 = parseRaw(
      await exchange(origin, 'GET /v1/store/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: bogus\r\nConnection: close\r\n\r\n'),
    )
    expect(expect417).toMatchObject({ status: 417, contentType: 'application/json', body: { code: ErrorCode.ExpectationFailed } })

    const slow = createHttpServer(() => undefined, { headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 })
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
    try {
      const timedOut = parseRaw(
        await exchange(`http://127.0.0.1:${(slow.address() as AddressInfo).port}`, 'GET /v1/store/orders HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
      )
      expect(timedOut).toMatchObject({
        status: 408,
        contentType: 'application/json',
        body: { code: ErrorCode.RequestTimeout, status: 408 },
      })
    } finally {
      slow.close()
    }
  })
})

describe('binding and shutdown', () => {
  test('on an address that is not loopback and with no token given, the admin API requires a random token', async () => {
    const running = await start({ host: '0.0.0.0' })
    expect(running.adminToken).toMatch(/^[A-Za-z0-9_-]{24}$/)
    const local = `http://127.0.0.1:${running.port}`
    const refused = await fetch(`${local}/__sim/state`)
    expect(refused.status).toBe(401)
    expect((await fetch(`${local}/__sim/state`, { headers: { Authorization: `Bearer ${running.adminToken}` } })).status).toBe(200)
    expect((await fetch(`${local}/v1/store/orders`, { headers: auth })).status).toBe(200)
  })

  test('on the loopback (IPv4-mapped included) the admin API stays open; with admin off there is no token', async () => {
    expect((await start({ host: '127.0.0.1' })).adminToken).toBeNull()
    const mapped = await start({ host: '::ffff:127.0.0.1' })
    expect(mapped.adminToken).toBeNull()
    const answer = await send(`http://127.0.0.1:${mapped.port}`, '/__sim/state', { headers: { Host: `[::ffff:127.0.0.1]:${mapped.port}` } })
    expect(answer.status).toBe(200)
    expect((await start({ host: '0.0.0.0', admin: false })).adminToken).toBeNull()
  })

  test('shutdown closes connections still sending headers at once, and a request in flight still gets its answer', async () => {
    const time = testTime()
    const running = await startSimulatorServer({ port: 0, latency: 300, time })
    const local = `http://127.0.0.1:${running.port}`
    const dangling = exchange(local, 'GET /v1/store/orders HTTP/1.1\r\nHost: 127.0.0.1\r\n', 20_000)
    let answered = false
    const inFlight = fetch(`${local}/v1/store/orders`, { headers: auth }).finally(() => (answered = true))
    // The request is in flight once it waits out its latency.
    await time.untilPending()
    const closing = running.close()
    // Closed at once: while the request in flight still waits, the connection still sending headers is gone.
    await dangling
    expect(answered).toBe(false)
    time.advance(300)
    await closing
    expect((await inFlight).status).toBe(200)
  })
})
