import { afterAll, beforeAll, expect, test } from 'vitest'
import { createSimulator, type Simulator } from '../src/index.js'
import { type RunningSimulator, startSimulatorServer } from '../src/server.js'

// sim.fetch against Node's fetch in front of the standalone server, input by input: the same TypeError, or the
// same status, status text, headers and bytes, and the same journal. Headers of the connection (Date, Connection,
// Keep-Alive) and of CORS, which only a browser reads, are the server's alone.

const auth = { Authorization: 'Bearer petstore-test-key' }
const TEN_MB = 'x'.repeat(10 * 1024 * 1024)
const OPTIONS = { scenario: 'pending', rateLimit: '100/60s' } as const

let server: RunningSimulator
let sim: Simulator
let origin: string

beforeAll(async () => {
  server = await startSimulatorServer({ ...OPTIONS, port: 0 })
  sim = createSimulator(OPTIONS)
  origin = server.url.replace(/\/v1$/, '')
})
afterAll(() => server?.close())

type Outcome =
  | { error: string; cause?: string }
  | { status: number; statusText: string; headers: [string, string][]; body: string; url: string }

const SERVER_ONLY = /^(date|connection|keep-alive|vary|access-control-.*)$/

async function outcome(send: () => Promise<Response>): Promise<Outcome> {
  let response: Response
  try {
    response = await send()
  } catch (error) {
    const { name, message, cause } = error as Error
    return cause === undefined ? { error: `${name}: ${message}` } : { error: `${name}: ${message}`, cause: String(cause) }
  }
  const headers = [...response.headers].filter(([name]) => !SERVER_ONLY.test(name))
  // The RateLimit-Reset counts seconds down from the window's start: equal within a second or two.
  const steady = headers.map(([name, value]): [string, string] => [name, name === 'ratelimit-reset' ? 'n' : value])
  return { status: response.status, statusText: response.statusText, headers: steady, body: await response.text(), url: response.url }
}

/** Sends one input both ways, from the same state, and gives both outcomes (the URL is the server's, matched by /v1 on any origin). */
async function bothWays(input: string, init?: RequestInit): Promise<{ http: Outcome; inProcess: Outcome }> {
  await Promise.all([server.sim.reset(), sim.reset()])
  server.sim.journal.clear()
  sim.journal.clear()
  const url = /^https?:/.test(input) || input.startsWith('/') ? input : input.replace(/^~/, origin)
  const http = await outcome(() => fetch(url, init))
  const inProcess = await outcome(() => sim.fetch(url, init))
  const journal = (of: Simulator) => of.journal.entries().map((entry) => `${entry.method} ${entry.path} ${entry.status}`)
  // Over HTTP an OPTIONS is a CORS preflight, which the server answers before the simulator (and its journal) sees it.
  if (init?.method !== 'OPTIONS') expect(journal(sim), `the journal after ${init?.method ?? 'GET'} ${input}`).toEqual(journal(server.sim))
  return { http, inProcess }
}

const BAD_INPUT: [string, string, RequestInit | undefined, string][] = [
  ['a non-URL', 'not a url', undefined, 'TypeError: Failed to parse URL from not a url'],
  ['a relative URL', '/v1/store/orders', { headers: auth }, 'TypeError: Failed to parse URL from /v1/store/orders'],
  ['a body on GET', '~/v1/store/orders', { headers: auth, body: '{}' }, 'TypeError: Request with GET/HEAD method cannot have body.'],
  ['a body on HEAD', '~/v1/store/orders', { method: 'HEAD', body: 'x' }, 'TypeError: Request with GET/HEAD method cannot have body.'],
  ['a header with a newline', '~/v1/store/orders', { headers: { Authorization: 'Bearer a\nX-Evil: 1' } }, 'TypeError: Headers.append'],
  ['a method that is not a token', '~/v1/store/orders', { method: 'GET /x' }, "TypeError: 'GET /x' is not a valid HTTP method."],
  ['CONNECT', '~/v1/store/orders', { method: 'CONNECT' }, "TypeError: 'CONNECT' HTTP method is unsupported."],
  ['TRACE', '~/v1/store/orders', { method: 'TRACE' }, "TypeError: 'TRACE' HTTP method is unsupported."],
]

test.each(BAD_INPUT)('%s rejects with the TypeError of Node’s fetch', async (_name, input, init, error) => {
  const { http, inProcess } = await bothWays(input, init)
  expect(inProcess).toEqual(http)
  expect((inProcess as { error: string }).error).toContain(error)
})

const ANSWERED: [string, string, RequestInit, number, string | null][] = [
  ['an unsupported method the parser knows', '~/v1/store/orders/1', { method: 'PATCH', headers: auth }, 405, 'method_not_allowed'],
  ['PUT on the list', '~/v1/store/orders', { method: 'PUT', headers: auth, body: '[]' }, 405, 'method_not_allowed'],
  ['a method the parser does not know', '~/v1/store/orders/1', { method: 'FOO', headers: auth }, 400, 'invalid_request'],
  ['a lower-case patch (Fetch sends it as written)', '~/v1/store/orders/1', { method: 'patch', headers: auth }, 400, 'invalid_request'],
  ['10 MB of body on a cancel', '~/v1/store/orders/1', { method: 'DELETE', headers: auth, body: TEN_MB }, 413, 'payload_too_large'],
  ['10 MB of body on a POST', '~/v1/store/orders', { method: 'POST', headers: auth, body: TEN_MB }, 413, 'payload_too_large'],
  ['70 KB of headers', '~/v1/store/orders', { headers: { ...auth, 'X-Big': 'y'.repeat(70_000) } }, 431, 'headers_too_large'],
  ['a small body on a cancel', '~/v1/store/orders/1', { method: 'DELETE', headers: auth, body: '{"why":"test"}' }, 204, null],
  ['HEAD on the list', '~/v1/store/orders', { method: 'HEAD', headers: auth }, 405, null],
  ['OPTIONS on the list', '~/v1/store/orders', { method: 'OPTIONS' }, 204, null],
  ['the list', '~/v1/store/orders', { headers: auth }, 200, null],
  ['the list, no key', '~/v1/store/orders', {}, 401, 'unauthorized'],
  ['the list, Prefer: code=401', '~/v1/store/orders', { headers: { ...auth, Prefer: 'code=401' } }, 401, 'unauthorized'],
  ['a cancel', '~/v1/store/orders/1', { method: 'DELETE', headers: auth }, 204, null],
  ['a cancel of no order', '~/v1/store/orders/999', { method: 'DELETE', headers: auth }, 404, 'order_not_found'],
  ['a cancel of a bad id', '~/v1/store/orders/1e3', { method: 'DELETE', headers: auth }, 400, 'invalid_order_id'],
  ['a cancel in a session', '~/v1/store/orders/1', { method: 'DELETE', headers: { ...auth, 'X-Sim-Session': 's-1' } }, 204, null],
  ['a bad session id', '~/v1/store/orders', { headers: { ...auth, 'X-Sim-Session': 'a b' } }, 400, 'invalid_request'],
  ['the deprecated pets operation', '~/v1/pets/1', { headers: auth }, 404, 'pet_not_found'],
  ['an unknown path under the base', '~/v1/store/nothing?x=1', { headers: auth }, 404, 'not_found'],
  ['the list with a query and a fragment', '~/v1/store/orders?page=2#top', { headers: auth }, 200, null],
]

test.each(ANSWERED)('%s: the same status, headers and bytes', async (_name, input, init, status, code) => {
  const { http, inProcess } = await bothWays(input, init)
  expect(inProcess).toEqual(http)
  expect((inProcess as { status: number }).status).toBe(status)
  if (code !== null) expect(JSON.parse((inProcess as { body: string }).body)).toMatchObject({ code, status })
})
