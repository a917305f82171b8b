// A proxy target's answer can never crash the server (issue 54, findings 1 and 6): whatever a target sends
// (header names or values Node refuses, more headers than undici reads, broken framing, no HTTP at all),
// the client gets 502 proxy_bad_answer with an Error body, over HTTP and in process, and the server goes on.
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import { createSimulator } from '../src/index.js'
import { setupSimulatorServer } from '../src/node.js'
import { type RunningSimulator, startSimulatorServer } from '../src/server.js'
import { HOSTILE_ANSWERS, type HostileCase, type RawTarget, startRawTarget } from './support/hostile-target.js'
import { send } from './support/raw-http.js'
import { useStandIns } from './support/stand-in.js'

const API = 'https://api.petstore.example/v1'
const PROXY_KEY = 'real-service-key-Zq81xK7mPw4n'
const auth = { Authorization: 'Bearer petstore-test-key' }
const CASES = Object.keys(HOSTILE_ANSWERS) as HostileCase[]

let target: RawTarget
let running: RunningSimulator
let origin: string
let sim: ReturnType<typeof createSimulator>

beforeAll(async () => {
  target = await startRawTarget()
  const proxy = { target: `${target.origin}/api`, key: PROXY_KEY }
  running = await startSimulatorServer({ port: 0, scenario: 'pending', proxy })
  origin = `http://127.0.0.1:${running.port}`
  sim = createSimulator({ scenario: 'pending', proxy })
}, 30_000)

afterAll(async () => {
  sim?.close()
  await running?.close()
  await target?.close()
})

/** The Error body every hostile answer gets, naming the target. */
const badAnswer = () => ({ code: 'proxy_bad_answer', message: expect.stringContaining(`${target.origin}/api`), status: 502 })

describe('over HTTP, the standalone server', () => {
  test.each(CASES)('a target answering %s gets 502 proxy_bad_answer, and the server goes on serving', async (name) => {
    const answer = await send(origin, `/v1/hostile/${name}`, { headers: auth })
    expect(answer.status).toBe(502)
    const body = JSON.parse(answer.body) as { message: string }
    expect(body).toEqual(badAnswer())
    expect(body.message).not.toContain(PROXY_KEY)
    expect((await send(origin, '/v1/store/orders', { headers: auth })).status).toBe(200)
  })
})

describe('in process', () => {
  test.each(CASES)('sim.fetch resolves with 502 proxy_bad_answer for a target answering %s', async (name) => {
    const response = await sim.fetch(`${API}/hostile/${name}`, { headers: auth })
    expect([response.status, await response.json()]).toEqual([502, badAnswer()])
    expect(sim.requests().at(-1)).toMatchObject({ status: 502, forwarded: true })
  })

  test("through msw's setupServer, a target answering a bad header name gets the same 502", async () => {
    const { server, sim: mswSim } = setupSimulatorServer({ scenario: 'pending', proxy: { target: `${target.origin}/api` } })
    server.listen()
    onTestFinished(() => {
      server.close()
      mswSim.close()
    })
    const response = await fetch(`${API}/hostile/bad-name`, { headers: auth })
    expect([response.status, (await response.json()).code]).toEqual([502, 'proxy_bad_answer'])
  })
})

describe('what a target may send', () => {
  const startStandIn = useStandIns()

  test('a page it sends is sandboxed (Content-Security-Policy: sandbox, in place of its own), over HTTP and in process', async () => {
    const page = await startStandIn((_, res) =>
      res
        .writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': "script-src 'unsafe-inline'" })
        .end('<script>fetch("/__sim/state")</script>'),
    )
    const server = await startSimulatorServer({ port: 0, scenario: 'pending', proxy: { target: page.origin } })
    onTestFinished(() => server.close())
    const overHttp = await send(`http://127.0.0.1:${server.port}`, '/v1/page.html', { headers: auth })
    expect([overHttp.status, overHttp.headers['content-security-policy']]).toEqual([200, 'sandbox'])
    const local = createSimulator({ scenario: 'pending', proxy: { target: page.origin } })
    onTestFinished(() => local.close())
    const inProcess = await local.fetch(`${API}/page.html`, { headers: auth })
    expect([inProcess.status, inProcess.headers.get('Content-Security-Policy')]).toEqual([200, 'sandbox'])
  })

  test('a 204 or 304 it answers reaches sim.fetch as such, without a body', async () => {
    const empty = await startStandIn((seen, res) => res.writeHead(seen.url.endsWith('/cached') ? 304 : 204, { 'X-Kept': 'yes' }).end())
    const local = createSimulator({ scenario: 'pending', proxy: { target: empty.origin } })
    onTestFinished(() => local.close())
    for (const [path, status] of [
      ['/gone', 204],
      ['/cached', 304],
    ] as const) {
      const response = await local.fetch(`${API}${path}`, { headers: auth })
      expect([response.status, response.headers.get('X-Kept'), response.body]).toEqual([status, 'yes', null])
    }
  })
})
