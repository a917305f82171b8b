// Forwarding (--proxy) and recording (issue 45, items 2 and 3), against a local stand-in of the real
// service: what the stand-in sees, what the client gets back, what the journal, state and export say,
// and that the real key shows up in none of them. In process (sim.fetch, msw) and over HTTP.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { stringifyExactJson } from '../src/core/exact-json.js'
import { createSimulator, type Scenario, type SimulatorOptions } from '../src/index.js'
import { setupSimulatorServer } from '../src/node.js'
import { createSimulatorCore } from '../src/core/simulator/simulator.js'
import { requiredGeneration } from '../src/transports/msw/required-generation.js'
import { expectResponseMatchesContract } from './support/contract.js'
import { send } from './support/raw-http.js'
import { postThenPreflight } from './support/post-preflight.js'
import { useAdminApi, useAppServers } from './support/serve.js'
import { closedPort, FAKE_INVENTORY, fakeService, neverAnswers, streamBytes, useStandIns } from './support/stand-in.js'
import { testTime } from './support/test-time.js'

// The admin app and the answer checker load in set-up, not in the first test that calls /__sim.
useAdminApi()

const API = 'https://api.petstore.example/v1'
/** The real service's key: no answer of the simulator, journal entry, state or export may hold it. */
const PROXY_KEY = 'real-service-key-Zq81xK7mPw4n'
const auth = { Authorization: 'Bearer petstore-test-key' }
const COOKIE = 'sid=staging-session-Hq20vL; Path=/; HttpOnly'
type Proxy = Partial<NonNullable<SimulatorOptions['proxy']>>

const startStandIn = useStandIns()

/** A simulator forwarding to the fake service under /api, with the real key unless `proxy` says otherwise. */
async function simulatorTo(proxy: Proxy = {}, options: SimulatorOptions = {}) {
  const standIn = await startStandIn(fakeService)
  const sim = createSimulator({ scenario: 'pending', ...options, proxy: { target: `${standIn.origin}/api`, key: PROXY_KEY, ...proxy } })
  onTestFinished(() => sim.close())
  return { standIn, sim }
}

/** Every text a user could read of the state: journal, state, export. */
const written = (sim: ReturnType<typeof createSimulator>) => stringifyExactJson([sim.requests(), sim.state(), sim.exportScenario()])

/** The status and Error body of an answer. */
async function errorOf(response: Response) {
  return { status: response.status, body: (await response.json()) as { code: string; message: string; status: number } }
}

describe('forwarding, in process (sim.fetch)', () => {
  test('what no operation takes goes to the same path and query under the target, with the real key in place of the client key', async () => {
    const { standIn, sim } = await simulatorTo()
    const response = await sim.fetch(`${API}/store/inventory?x=1&y=a%20b`, { headers: { ...auth, 'X-Sim-Session': 'run-1' } })
    expect([response.status, response.headers.get('X-Request-Id'), await response.text()]).toEqual([200, 'r-1', FAKE_INVENTORY])
    expect(response.headers.getSetCookie()).toEqual([COOKIE])
    expect(standIn.seen).toHaveLength(1)
    const [seen] = standIn.seen
    expect(seen?.url).toBe('/api/store/inventory?x=1&y=a%20b')
    expect(seen?.headers.authorization).toBe(`Bearer ${PROXY_KEY}`)
    expect(seen?.headers['x-sim-session']).toBeUndefined()
    expect(seen?.headers.host).toBe(new URL(standIn.origin).host)
  })

  test("without a proxy key the client's Authorization goes as sent, and a body as sent", async () => {
    const { standIn, sim } = await simulatorTo({ key: undefined })
    const created = await sim.fetch(`${API}/store/orders`, {
      method: 'POST',
      headers: { Authorization: 'Bearer a-staging-token', 'Content-Type': 'application/json' },
      body: '{"petId":7,"quantity":1}',
    })
    expect([created.status, await created.text()]).toEqual([201, '{"petId":7,"quantity":1}'])
    expect(standIn.seen[0]?.headers.authorization).toBe('Bearer a-staging-token')
    expect(standIn.seen[0]?.headers['content-type']).toBe('application/json')
  })

  test("the spec's operations are never forwarded, in any scenario, whatever they answer", async () => {
    const { standIn, sim } = await simulatorTo()
    for (const scenario of ['pending', 'missing', 'bad-key', 'shipped']) {
      sim.reset({ scenario })
      const list = await sim.fetch(`${API}/store/orders`, { headers: auth })
      expectResponseMatchesContract('GET', '/store/orders', { status: list.status, headers: list.headers, text: await list.text() })
      const cancel = await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: auth })
      expectResponseMatchesContract('DELETE', '/store/orders/1', {
        status: cancel.status,
        headers: cancel.headers,
        text: await cancel.text(),
      })
      const pet = await sim.fetch(`${API}/pets/101`)
      expectResponseMatchesContract('GET', '/pets/101', { status: pet.status, headers: pet.headers, text: await pet.text() })
    }
    expect(standIn.seen).toEqual([])
    expect(sim.requests().some((entry) => entry.forwarded === true)).toBe(false)
  })

  test('a scenario route answers before the target is asked', async () => {
    const routes = [{ method: 'GET', path: '/store/inventory', status: 200, body: { available: 0 } }] as Scenario['routes']
    const { standIn, sim } = await simulatorTo({}, { scenario: { name: 'routed', orders: [], routes } as Scenario })
    const response = await sim.fetch(`${API}/store/inventory`, { headers: auth })
    expect(await response.json()).toEqual({ available: 0 })
    expect(standIn.seen).toEqual([])
  })

  test('a redirect is passed back, not followed', async () => {
    const { standIn, sim } = await simulatorTo()
    const response = await sim.fetch(`${API}/old-inventory`, { headers: auth })
    expect([response.status, response.headers.get('Location')]).toEqual([302, '/api/store/inventory'])
    expect(standIn.seen.map((seen) => seen.url)).toEqual(['/api/old-inventory'])
  })

  test('the journal records a forwarded request as forwarded, with the status that came back', async () => {
    const { sim } = await simulatorTo()
    await sim.fetch(`${API}/store/inventory`, { headers: auth })
    await sim.fetch(`${API}/store/carts/9`, { headers: auth })
    await sim.fetch(`${API}/store/orders`, { headers: auth })
    expect(
      sim.requests().map(({ method, path, status, operation, forwarded }) => ({ method, path, status, operation, forwarded })),
    ).toEqual([
      { method: 'GET', path: '/v1/store/inventory', status: 200, operation: null, forwarded: true },
      { method: 'GET', path: '/v1/store/carts/9', status: 404, operation: null, forwarded: true },
      { method: 'GET', path: '/v1/store/orders', status: 200, operation: 'listOrders', forwarded: undefined },
    ])
  })

  test('no answer within the timeout is 504 proxy_timeout, counted on the simulator time', async () => {
    const time = testTime()
    const { handle, arrived } = neverAnswers()
    const standIn = await startStandIn(handle)
    const sim = createSimulator({ scenario: 'pending', time, proxy: { target: standIn.origin, key: PROXY_KEY, timeoutSeconds: 2 } })
    onTestFinished(() => sim.close())
    let settled = false
    const pending = sim.fetch(`${API}/store/inventory`, { headers: auth }).finally(() => {
      settled = true
    })
    await arrived
    await time.advance(1_999)
    expect(settled).toBe(false)
    await time.advance(1)
    const { status, body } = await errorOf(await pending)
    expect([status, body.code, body.status]).toEqual([504, 'proxy_timeout', 504])
    expect(body.message).toContain(standIn.origin)
    expect(body.message).not.toContain(PROXY_KEY)
    await standIn.aborted
    expect(sim.requests()[0]).toMatchObject({ status: 504, forwarded: true })
  })

  test('a body that stops coming is 504 proxy_timeout too: the timeout covers the whole answer', async () => {
    const time = testTime()
    const { handle, arrived } = neverAnswers()
    const standIn = await startStandIn((seen, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).write('{"partial":', () => handle(seen, res))
    })
    const sim = createSimulator({ scenario: 'pending', time, proxy: { target: standIn.origin } })
    onTestFinished(() => sim.close())
    const pending = sim.fetch(`${API}/store/inventory`, { headers: auth })
    await arrived
    await time.advance(10_000)
    const { status, body } = await errorOf(await pending)
    expect([status, body.code]).toEqual([504, 'proxy_timeout'])
  })

  test('an unreachable target is 502 proxy_unreachable, naming the target and never the key', async () => {
    const target = `http://127.0.0.1:${await closedPort()}/api`
    const sim = createSimulator({ scenario: 'pending', proxy: { target, key: PROXY_KEY } })
    onTestFinished(() => sim.close())
    const { status, body } = await errorOf(await sim.fetch(`${API}/store/inventory`, { headers: auth }))
    expect([status, body.code, body.status]).toEqual([502, 'proxy_unreachable', 502])
    expect(body.message).toContain(target)
    expect(body.message).not.toContain(PROXY_KEY)
    expect(sim.requests()[0]).toMatchObject({ status: 502, forwarded: true })
  })

  test('an answer over 32 MiB is 502 proxy_answer_too_large, and the target is cut off', async () => {
    // 1 GiB: far more than could arrive before the simulator gives up, so the stand-in sees its reader go.
    const standIn = await startStandIn((_, res) => void streamBytes(res, 1024 ** 3))
    const sim = createSimulator({ scenario: 'pending', proxy: { target: standIn.origin, record: true } })
    onTestFinished(() => sim.close())
    const { status, body } = await errorOf(await sim.fetch(`${API}/exports/all`, { headers: auth }))
    expect([status, body.code, body.status]).toEqual([502, 'proxy_answer_too_large', 502])
    await standIn.aborted
    expect(sim.state().routes).toEqual([])
  })

  test('the proxy key is in no answer, journal entry, state, export or option error, even when the target echoes it', async () => {
    const { sim } = await simulatorTo({ record: true })
    const paths = ['/whoami', '/store/inventory', '/nope']
    const answers = await Promise.all(paths.map((path) => sim.fetch(`${API}${path}`, { headers: auth }).then((r) => r.text())))
    expect(answers[0]).toContain(PROXY_KEY)
    expect(answers.slice(1).join('')).not.toContain(PROXY_KEY)
    expect(written(sim)).not.toContain(PROXY_KEY)
    // The echo is not recorded at all: its body carries the key.
    expect(
      sim
        .state()
        .routes.map((route) => route.path)
        .sort(),
    ).toEqual(['/nope', '/store/inventory'])
    for (const proxy of [
      { target: 'ftp://staging.example.test', key: PROXY_KEY },
      { target: 'https://a.test', key: `${PROXY_KEY} x` },
      { target: 'https://a.test', key: PROXY_KEY, timeoutSeconds: 0 },
    ]) {
      expect(() => createSimulator({ proxy })).toThrow(expect.objectContaining({ message: expect.not.stringContaining(PROXY_KEY) }))
    }
  })

  test("a page's simulator (no Node.js files) refuses a proxy: its key would be anyone's who loads the page", () => {
    expect(() =>
      createSimulatorCore({ proxy: { target: 'https://staging.example.test/v1' } }, { generation: requiredGeneration() }),
    ).toThrow(/proxy works in Node\.js only/)
  })

  test('a request naming a new session without an accepted key is refused as the operations refuse it, and not forwarded', async () => {
    const { standIn, sim } = await simulatorTo()
    const response = await sim.fetch(`${API}/store/inventory`, { headers: { Authorization: 'Bearer nope', 'X-Sim-Session': 'new-run' } })
    expect((await errorOf(response)).status).toBe(401)
    expect(standIn.seen).toHaveLength(0)
  })

  test("with msw's setupServer failing unhandled requests, a forwarded request still reaches the target", async () => {
    const standIn = await startStandIn(fakeService)
    // What the project's own harness and many suites choose: an unhandled request fails the test.
    const { server, sim } = setupSimulatorServer({
      scenario: 'pending',
      proxy: { target: `${standIn.origin}/api`, key: PROXY_KEY },
      onUnhandledRequest: 'error',
    })
    server.listen()
    onTestFinished(() => {
      server.close()
      sim.close()
    })
    const response = await fetch(`${API}/store/inventory`, { headers: auth })
    expect([response.status, await response.text()]).toEqual([200, FAKE_INVENTORY])
    expect(standIn.seen).toHaveLength(1)
  })
})

describe('recording, in process', () => {
  test('a forwarded path that repeats the base is passed back but not recorded: saved, it would not load', async () => {
    const { standIn, sim } = await simulatorTo({ record: true })
    // The stand-in answers its own 404 there: below 500, so recordable but for its path.
    const live = await sim.fetch(`${API}/v1/store/inventory`, { headers: auth })
    expect(live.status).toBe(404)
    expect(sim.requests().at(-1)).toMatchObject({ forwarded: true })
    expect(standIn.seen).toHaveLength(1)
    expect(sim.state().routes).toEqual([])
    await standIn.close()
  })

  test('a forwarded answer becomes a route, without Authorization or Set-Cookie, and answers once the service is gone', async () => {
    const { standIn, sim } = await simulatorTo({ record: true })
    const live = await sim.fetch(`${API}/store/inventory?page=1`, { headers: auth })
    expect([live.status, await live.text()]).toEqual([200, FAKE_INVENTORY])
    const { routes } = sim.state()
    expect(routes).toHaveLength(1)
    expect(routes[0]).toMatchObject({ method: 'GET', path: '/store/inventory', status: 200, query: { page: '1' } })
    expect(Object.keys(routes[0]?.headers ?? {}).sort()).toEqual(['content-type', 'x-request-id'])
    expect(stringifyExactJson(routes)).not.toMatch(/authorization|set-cookie|staging-session/i)
    await standIn.close()

    // Recorded with its query, the route answers that query (issue 57: routes per query).
    const offline = await sim.fetch(`${API}/store/inventory?page=1`, { headers: auth })
    expect([offline.status, offline.headers.get('X-Request-Id'), await offline.text()]).toEqual([200, 'r-1', FAKE_INVENTORY])
    expect(offline.headers.getSetCookie()).toEqual([])
    // A recorded route asks for a key, as the service's operations do.
    expect((await sim.fetch(`${API}/store/inventory?page=1`)).status).toBe(401)
    expect(sim.requests().map((entry) => entry.forwarded ?? false)).toEqual([true, false, false])
    expect(standIn.seen).toHaveLength(1)
  })

  test('the export holds recorded routes (below 500 only) and loads back answering offline; a reset drops them', async () => {
    const { standIn, sim } = await simulatorTo({ record: true })
    for (const path of ['/store/inventory', '/broken', '/unknown-thing']) await sim.fetch(`${API}${path}`, { headers: auth })
    const exported = sim.exportScenario()
    expect(exported.routes?.map(({ path, status }) => ({ path, status }))).toEqual([
      { path: '/store/inventory', status: 200 },
      { path: '/unknown-thing', status: 404 },
    ])
    expect(stringifyExactJson(exported)).not.toContain(PROXY_KEY)
    await standIn.close()
    const offline = createSimulator({ scenario: exported })
    onTestFinished(() => offline.close())
    const response = await offline.fetch(`${API}/store/inventory`, { headers: auth })
    expect([response.status, await response.text()]).toEqual([200, FAKE_INVENTORY])
    sim.reset()
    expect(sim.state().routes).toEqual([])
  })

  test("a session's recordings are its own; without record: true nothing is recorded", async () => {
    const { sim } = await simulatorTo({ record: true })
    await sim.fetch(`${API}/store/inventory`, { headers: { ...auth, 'X-Sim-Session': 'qa' } })
    expect(
      sim
        .session('qa')
        .state()
        .routes.map((route) => route.path),
    ).toEqual(['/store/inventory'])
    expect(sim.state().routes).toEqual([])
    const { sim: plain } = await simulatorTo()
    await plain.fetch(`${API}/store/inventory`, { headers: auth })
    expect(plain.state().routes).toEqual([])
  })

  test('a state records at most 16 MiB of routes; past it answers are still passed back, not recorded', async () => {
    // 17 answers of about 1,000,000 bytes each: the 17th would pass 16 MiB (16,777,216 bytes). Text, as
    // recording 17 JSON bodies of 1 MB costs seconds (parseExactJson), which is not what this test is about.
    const big = 'x'.repeat(1_000_000)
    const standIn = await startStandIn((_, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(big))
    const sim = createSimulator({ scenario: 'pending', proxy: { target: standIn.origin, record: true } })
    onTestFinished(() => sim.close())
    for (let index = 0; index < 17; index += 1) {
      const response = await sim.fetch(`${API}/blobs/${index}`, { headers: auth })
      expect([response.status, (await response.text()).length]).toEqual([200, big.length])
    }
    expect(sim.state().routes.map((route) => route.path)).toEqual(Array.from({ length: 16 }, (_, index) => `/blobs/${index}`))
  })
})

describe('over HTTP (the standalone server)', () => {
  const serve = useAppServers()

  async function serverTo(proxy: Proxy = {}, options = {}) {
    const standIn = await startStandIn(fakeService)
    const target = `${standIn.origin}/api`
    const { origin, sim } = await serve({ scenario: 'pending', ...options, proxy: { target, key: PROXY_KEY, ...proxy } })
    return { standIn, origin, sim }
  }

  test("forwards with the target's Host, the real key, and without the session or hop-by-hop headers", async () => {
    const lines: string[] = []
    const { standIn, origin } = await serverTo({}, { log: (line: string) => lines.push(line) })
    const answer = await send(origin, '/v1/store/inventory?x=1', {
      headers: { ...auth, 'X-Sim-Session': 'run-1', Connection: 'X-Hop', 'X-Hop': 'private', 'X-Trace': 't-1' },
    })
    expect([answer.status, answer.body, answer.headers['x-request-id']]).toEqual([200, FAKE_INVENTORY, 'r-1'])
    expect(answer.headers['set-cookie']).toEqual([COOKIE])
    const [seen] = standIn.seen
    expect(seen?.url).toBe('/api/store/inventory?x=1')
    expect(seen?.headers.host).toBe(new URL(standIn.origin).host)
    expect(seen?.headers.authorization).toBe(`Bearer ${PROXY_KEY}`)
    expect(seen?.headers['x-trace']).toBe('t-1')
    expect(seen?.headers['x-sim-session']).toBeUndefined()
    expect(seen?.headers['x-hop']).toBeUndefined()
    expect(lines.join('\n')).not.toContain(PROXY_KEY)
  })

  test("/__sim, paths outside the base, dot segments out of it and the spec's operations never reach the target", async () => {
    const { standIn, origin } = await serverTo()
    expect((await send(origin, '/__sim/no-such-thing')).status).toBe(404)
    expect((await send(origin, '/__sim/state')).status).toBe(200)
    expect((await send(origin, '/elsewhere/store/inventory', { headers: auth })).status).toBe(404)
    // Dot segments, encoded or not, are refused (400 invalid_path) before anything could pass them on.
    for (const path of ['/v1/%2e%2e/secret', '/v1/store/../../secret'])
      expect((await send(origin, path, { headers: auth })).status).toBe(400)
    const list = await send(origin, '/v1/store/orders', { headers: auth })
    const headers = new Headers(list.headers as Record<string, string>)
    expectResponseMatchesContract('GET', '/store/orders', { status: list.status, headers, text: list.body })
    expect((await send(origin, '/v1/store/orders/1', { method: 'DELETE' })).status).toBe(401)
    expect(standIn.seen).toEqual([])
  })

  test('a redirect is passed back, not followed, and GET /__sim/requests shows the forwarded entries', async () => {
    const { standIn, origin } = await serverTo()
    const answer = await send(origin, '/v1/old-inventory', { headers: auth })
    expect([answer.status, answer.headers.location]).toEqual([302, '/api/store/inventory'])
    expect(standIn.seen).toHaveLength(1)
    const journal = JSON.parse((await send(origin, '/__sim/requests')).body) as { path: string; status: number; forwarded?: boolean }[]
    expect(journal.map(({ path, status, forwarded }) => ({ path, status, forwarded }))).toEqual([
      { path: '/v1/old-inventory', status: 302, forwarded: true },
    ])
  })

  test('a timeout over HTTP is 504 proxy_timeout with an Error body', async () => {
    const time = testTime()
    const { handle, arrived } = neverAnswers()
    const standIn = await startStandIn(handle)
    const { origin } = await serve({ scenario: 'pending', time, proxy: { target: standIn.origin } })
    const pending = send(origin, '/v1/store/inventory', { headers: auth })
    await arrived
    await time.advance(10_000)
    const answer = await pending
    expect([answer.status, JSON.parse(answer.body)]).toMatchObject([504, { code: 'proxy_timeout', status: 504 }])
  })

  test("a browser's preflight for a method the target answers at a spec operation's path allows that method", async () => {
    const { origin } = await serverTo()
    expect(await postThenPreflight(origin)).toEqual({ created: 201, preflight: 204, allowed: expect.stringContaining('POST') })
  })

  test('recording over HTTP: state, export and POST /__sim/scenarios hold the route, never the key or cookie', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-proxy-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const { standIn, origin } = await serverTo({ record: true }, { scenariosDir: dir })
    await send(origin, '/v1/store/inventory', { headers: auth })
    await standIn.close()
    const offline = await send(origin, '/v1/store/inventory', { headers: auth })
    expect([offline.status, offline.body]).toEqual([200, FAKE_INVENTORY])
    const state = JSON.parse((await send(origin, '/__sim/state')).body) as { routes: { path: string }[] }
    expect(state.routes.map((route) => route.path)).toEqual(['/store/inventory'])
    const exported = await send(origin, '/__sim/export')
    expect(exported.body).toContain('/store/inventory')
    const saved = await send(origin, '/__sim/scenarios', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"from-staging"}',
    })
    expect(saved.status).toBe(201)
    const file = readFileSync(join(dir, 'from-staging.json'), 'utf8')
    const requests = (await send(origin, '/__sim/requests')).body
    for (const text of [file, exported.body, requests, JSON.stringify(state)]) {
      expect(text).not.toContain(PROXY_KEY)
      expect(text).not.toContain('staging-session')
    }
    const loaded = createSimulator({ scenario: join(dir, 'from-staging.json') })
    onTestFinished(() => loaded.close())
    const again = await loaded.fetch(`${API}/store/inventory`, { headers: auth })
    expect([again.status, await again.text()]).toEqual([200, FAKE_INVENTORY])
  })
})
