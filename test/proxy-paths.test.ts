// One path rule for the base, the operations, routes and forwarding (issue 54, items 3 and 6): no
// spelling of the spec's operations, and no path a server behind could read as another, reaches a
// stand-in of the real service. Over HTTP (the raw target as sent) and in process (sim.fetch).
import { connect } from 'node:net'
import { describe, expect, onTestFinished, test } from 'vitest'
import { createSimulator } from '../src/index.js'
import { send } from './support/raw-http.js'
import { useAppServers } from './support/serve.js'
import { fakeService, useStandIns } from './support/stand-in.js'

const PROXY_KEY = 'real-service-key-Zq81xK7mPw4n'
const auth = { Authorization: 'Bearer petstore-test-key' }

const startStandIn = useStandIns()
const serve = useAppServers()

async function serverTo(options: { basePath?: string; scenario?: string } = {}) {
  const standIn = await startStandIn(fakeService)
  const { origin } = await serve({ scenario: 'pending', ...options, proxy: { target: `${standIn.origin}/api`, key: PROXY_KEY } })
  return { standIn, origin }
}

/** One request written byte for byte (a tab or a control character that an HTTP client refuses to send). */
function rawRequest(origin: string, requestLine: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.end(`${requestLine}\r\nHost: 127.0.0.1\r\nAuthorization: ${auth.Authorization}\r\nConnection: close\r\n\r\n`)
    })
    let text = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      text += chunk
    })
    socket.on('error', reject)
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) })
    })
  })
}

/** An Error body's code; "" for any other answer (a list, an empty body). */
const codeOf = (body: string) => (body.startsWith('{') ? ((JSON.parse(body) as { code?: string }).code ?? '') : '')

describe('over HTTP, the raw target as sent', () => {
  test("no spelling of the spec's operations reaches the target: each is answered here", async () => {
    const { standIn, origin } = await serverTo()
    const answers: Record<string, [number, string]> = {}
    const spellings: [string, string, Record<string, string>][] = [
      ['DELETE', '/V1/store/orders/1', {}],
      ['GET', '/V1/store/orders', auth],
      ['DELETE', '/v1/STORE/orders/1', {}],
      ['GET', '/v1/Store/Orders', auth],
      ['GET', '/v1/store/%6Frders', auth],
      ['DELETE', '/v1/store/%6frders/1', {}],
      ['GET', '/v1//store/orders', auth],
      ['GET', '/v1/store/orders;x=1', auth],
      ['DELETE', '/v1/store/orders/1;x=1', {}],
      ['GET', '/v1/..%2f..%2fx', auth],
      ['GET', '/v1/store/%2e%2e/store/orders', auth],
      ['GET', '/v1/x/../store/orders', auth],
      ['GET', '/v1/store\\orders', auth],
      ['GET', '/v1/store/orders%2f1', auth],
      ['GET', '/v1/a%00b', auth],
      ['GET', '/v1/store%09inventory', auth],
      ['GET', '/v1/a%7Fb', auth],
      ['GET', '/v1/a%zzb', auth],
    ]
    for (const [method, path, headers] of spellings) {
      const answer = await send(origin, path, { method, headers })
      answers[`${method} ${path}`] = [answer.status, codeOf(answer.body)]
    }
    expect(standIn.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual([])
    expect(answers).toEqual({
      'DELETE /V1/store/orders/1': [404, 'not_found'],
      'GET /V1/store/orders': [404, 'not_found'],
      'DELETE /v1/STORE/orders/1': [404, 'not_found'],
      'GET /v1/Store/Orders': [404, 'not_found'],
      // Decoded, it is the list: the simulator answers it, as the target would.
      'GET /v1/store/%6Frders': [200, ''],
      'DELETE /v1/store/%6frders/1': [401, 'unauthorized'],
      'GET /v1//store/orders': [400, 'invalid_path'],
      'GET /v1/store/orders;x=1': [400, 'invalid_path'],
      // The operation's own parameter rule refuses it first.
      'DELETE /v1/store/orders/1;x=1': [401, 'unauthorized'],
      'GET /v1/..%2f..%2fx': [400, 'invalid_path'],
      'GET /v1/store/%2e%2e/store/orders': [400, 'invalid_path'],
      'GET /v1/x/../store/orders': [400, 'invalid_path'],
      'GET /v1/store\\orders': [400, 'invalid_path'],
      'GET /v1/store/orders%2f1': [400, 'invalid_path'],
      'GET /v1/a%00b': [400, 'invalid_path'],
      'GET /v1/store%09inventory': [400, 'invalid_path'],
      'GET /v1/a%7Fb': [400, 'invalid_path'],
      'GET /v1/a%zzb': [400, 'invalid_path'],
    })
  })

  test('a raw backslash is 400 invalid_path; a raw tab or control character is refused by the HTTP parser; never a 500', async () => {
    const { standIn, origin } = await serverTo()
    const backslash = await rawRequest(origin, 'GET /v1/a\\b HTTP/1.1')
    expect([backslash.status, codeOf(backslash.body)]).toEqual([400, 'invalid_path'])
    for (const line of ['GET /v1/store\tinventory HTTP/1.1', 'GET /v1/a\x7fb HTTP/1.1', 'GET /v1/a\x01b HTTP/1.1']) {
      const answer = await rawRequest(origin, line)
      expect([answer.status, codeOf(answer.body)], JSON.stringify(line)).toEqual([400, 'invalid_request'])
    }
    expect(standIn.seen).toEqual([])
    expect((await send(origin, '/v1/store/orders', { headers: auth })).status).toBe(200)
  })

  test('what is forwarded is the path matched on, decoded where it reads the same, with the query as sent', async () => {
    const { standIn, origin } = await serverTo()
    expect((await send(origin, '/v1/store/%69nventory?x=%2f&y=1', { headers: auth })).status).toBe(200)
    // The stand-in knows no such path: its 404 is passed back.
    expect((await send(origin, '/v1/pets/search/a%20b:c@d/', { headers: auth })).status).toBe(404)
    expect(standIn.seen.map((seen) => seen.url)).toEqual(['/api/store/inventory?x=%2f&y=1', '/api/pets/search/a%20b:c@d/'])
  })

  test('--base-path / forwards and answers routes, and still never forwards an operation', async () => {
    const standIn = await startStandIn(fakeService)
    const { origin } = await serve({
      basePath: '/',
      scenario: {
        name: 'with-route',
        orders: [],
        routes: [{ method: 'GET', path: '/store/inventory', status: 200, body: { from: 'route' } }],
      },
      proxy: { target: `${standIn.origin}/api`, key: PROXY_KEY },
    })
    const routed = await send(origin, '/store/inventory', { headers: auth })
    expect([routed.status, routed.body]).toEqual([200, '{"from":"route"}'])
    expect((await send(origin, '/store/other', { headers: auth })).status).toBe(404)
    expect((await send(origin, '/store/orders', { headers: auth })).status).toBe(200)
    expect((await send(origin, '/STORE/orders', { headers: auth })).status).toBe(404)
    expect(standIn.seen.map((seen) => seen.url)).toEqual(['/api/store/other'])
  })
})

describe('in process (sim.fetch): the URL as Fetch parsed it', () => {
  test("no spelling of the spec's operations reaches the target, and hazards are 400 invalid_path", async () => {
    const standIn = await startStandIn(fakeService)
    const sim = createSimulator({ scenario: 'pending', proxy: { target: `${standIn.origin}/api`, key: PROXY_KEY } })
    onTestFinished(() => sim.close())
    const api = 'https://api.petstore.example'
    const statusOf = async (path: string, init: RequestInit = {}) => {
      const response = await sim.fetch(`${api}${path}`, { headers: auth, ...init })
      return [response.status, response.status === 200 || response.status === 204 ? '' : codeOf(await response.text())]
    }
    expect(await statusOf('/V1/store/orders/1', { method: 'DELETE', headers: {} })).toEqual([404, 'not_found'])
    expect(await statusOf('/v1/STORE/orders')).toEqual([404, 'not_found'])
    expect(await statusOf('/v1/store/%6Frders')).toEqual([200, ''])
    expect(await statusOf('/v1//store/orders')).toEqual([400, 'invalid_path'])
    expect(await statusOf('/v1/store/orders;x=1')).toEqual([400, 'invalid_path'])
    expect(await statusOf('/v1/..%2f..%2fx')).toEqual([400, 'invalid_path'])
    expect(standIn.seen).toEqual([])
    expect(await statusOf('/v1/store/inventory')).toEqual([200, ''])
    expect(standIn.seen.map((seen) => seen.url)).toEqual(['/api/store/inventory'])
  })
})

describe('routes read by the same rule', () => {
  test('a route path answers every spelling of itself, escaped or not', async () => {
    const sim = createSimulator({
      scenario: {
        name: 'spelled',
        orders: [],
        routes: [
          { method: 'GET', path: '/a|b', status: 200, body: 'bar' },
          { method: 'GET', path: '/x%7e', status: 200, body: 'tilde' },
          { method: 'GET', path: '/caf%C3%A9/{id}', status: 200, body: 'cafe' },
        ],
      },
    })
    onTestFinished(() => sim.close())
    const bodyOf = async (path: string) => {
      const response = await sim.fetch(`https://api.petstore.example/v1${path}`, { headers: auth })
      return `${response.status} ${await response.text()}`
    }
    expect(await bodyOf('/a|b')).toBe('200 "bar"')
    expect(await bodyOf('/a%7Cb')).toBe('200 "bar"')
    expect(await bodyOf('/x~')).toBe('200 "tilde"')
    expect(await bodyOf('/x%7E')).toBe('200 "tilde"')
    expect(await bodyOf('/café/1')).toBe('200 "cafe"')
  })

  test('a route path no request could reach (";", "\\\\", "%2f", "%2e") is refused at load, naming routes[N].path', () => {
    for (const path of ['/a;b', '/a\\b', '/a%2fb', '/%2e%2e', '/a%2Eb'])
      expect(
        () => createSimulator({ scenario: { name: 'dead', orders: [], routes: [{ method: 'GET', path, status: 200 }] } }),
        path,
      ).toThrow(/routes\[0\]\.path/)
  })
})
