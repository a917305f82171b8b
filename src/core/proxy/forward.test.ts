import { gzipSync } from 'node:zlib'
import { afterEach, expect, test } from 'vitest'
import { HOSTILE_ANSWERS, type RawTarget, startRawTarget } from '../../../test/support/hostile-target.js'
import { closedPort, type StandIn, startStandIn } from '../../../test/support/stand-in.js'
import { ApiError } from '../api-error.js'
import { forward, type ForwardRequest } from './forward.js'
import { unsendable } from './target-answer.js'

const KEY = 'real-service-key-0123456789'
let standIn: StandIn | undefined
let rawTarget: RawTarget | undefined
afterEach(async () => {
  await standIn?.close()
  await rawTarget?.close()
  standIn = undefined
  rawTarget = undefined
})

const request = (overrides: Partial<ForwardRequest> = {}): ForwardRequest => ({
  method: 'GET',
  target: '/store/inventory?x=1&y=2',
  headers: [['Accept', 'application/json']],
  body: null,
  ...overrides,
})

const text = (body: Uint8Array) => new TextDecoder().decode(body)

test('forwards to the same path and query under the target, with the key in place of the client Authorization', async () => {
  standIn = await startStandIn((_, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"sold":3}'))
  const answer = await forward(request({ headers: [['Authorization', 'Bearer petstore-test-key']] }), {
    target: `${standIn.origin}/v1/`,
    key: KEY,
  })
  expect(answer).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } })
  expect(answer.failure).toBeUndefined()
  expect(text(answer.body)).toBe('{"sold":3}')
  const [seen] = standIn.seen
  expect(seen?.url).toBe('/v1/store/inventory?x=1&y=2')
  expect(seen?.headers.authorization).toBe(`Bearer ${KEY}`)
  expect(seen?.rawHeaders.filter((name) => name.toLowerCase() === 'authorization')).toHaveLength(1)
})

test("without a key the client's Authorization goes as sent", async () => {
  standIn = await startStandIn((_, res) => res.end())
  await forward(request({ headers: [['authorization', 'Bearer client-own']] }), { target: `${standIn.origin}/v1` })
  expect(standIn.seen[0]?.headers.authorization).toBe('Bearer client-own')
})

test("X-Sim-Session, the simulator's headers, hop-by-hop ones and the client's Host are not forwarded", async () => {
  standIn = await startStandIn((_, res) => res.end())
  const headers: [string, string][] = [
    ['Host', 'simulator.example.test'],
    ['X-Sim-Session', 'run-42'],
    ['x-msw-intention', 'bypass'],
    ['Connection', 'keep-alive, X-Private'],
    ['X-Private', 'one hop only'],
    ['Keep-Alive', 'timeout=5'],
    ['TE', 'trailers'],
    ['Upgrade', 'h2c'],
    ['Proxy-Authorization', 'Basic cHJveHk6cGFzcw=='],
    ['Expect', '100-continue'],
    ['Prefer', 'code=409, return=minimal'],
    ['X-Request-Id', 'abc'],
  ]
  await forward(request({ method: 'POST', target: '/store/orders', headers, body: new TextEncoder().encode('{"petId":1}') }), {
    target: `${standIn.origin}/v1`,
  })
  const seen = standIn.seen[0]
  expect(seen?.headers.host).toBe(standIn.origin.slice('http://'.length))
  for (const name of ['x-sim-session', 'x-msw-intention', 'x-private', 'keep-alive', 'te', 'upgrade', 'proxy-authorization', 'expect'])
    expect(seen?.headers[name], name).toBeUndefined()
  // Prefer's code= steers the simulator only; the client's other preferences go on.
  expect(seen?.headers.prefer).toBe('return=minimal')
  expect(seen?.headers['x-request-id']).toBe('abc')
  expect(seen?.method).toBe('POST')
  expect(seen?.body.toString()).toBe('{"petId":1}')
})

test('a Prefer holding only code= is not sent at all', async () => {
  standIn = await startStandIn((_, res) => res.end())
  await forward(request({ headers: [['Prefer', 'code=404']] }), { target: `${standIn.origin}/v1` })
  expect(standIn.seen[0]?.headers.prefer).toBeUndefined()
})

test('a redirect is passed back, not followed; hop-by-hop, CORS and framing headers of the answer are dropped', async () => {
  standIn = await startStandIn((_, res) => {
    res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2; Path=/'])
    res
      .writeHead(302, { Location: '/v1/elsewhere', Connection: 'X-Hop', 'X-Hop': '1', 'Access-Control-Allow-Origin': '*', 'X-Kept': 'yes' })
      .end()
  })
  const answer = await forward(request(), { target: `${standIn.origin}/v1` })
  expect(answer.status).toBe(302)
  expect(answer.headers).toMatchObject({ location: '/v1/elsewhere', 'x-kept': 'yes' })
  for (const name of ['connection', 'x-hop', 'access-control-allow-origin', 'content-length', 'set-cookie'])
    expect(answer.headers[name], name).toBeUndefined()
  expect(answer.setCookie).toEqual(['a=1; Path=/', 'b=2; Path=/'])
  expect(standIn.seen).toHaveLength(1)
})

test('a compressed answer is passed back decoded, without its Content-Encoding', async () => {
  standIn = await startStandIn((_, res) =>
    res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Type': 'text/plain' }).end(gzipSync('hello')),
  )
  const answer = await forward(request(), { target: `${standIn.origin}/v1` })
  expect(text(answer.body)).toBe('hello')
  expect(answer.headers['content-encoding']).toBeUndefined()
})

test('no answer within the timeout is 504 proxy_timeout, headers or body', async () => {
  standIn = await startStandIn((seen, res) => {
    if (seen.url.endsWith('/body')) res.writeHead(200).write('partial') // then the body never ends
  })
  for (const target of ['/never', '/body']) {
    const answer = await forward(request({ target }), { target: `${standIn.origin}/v1`, key: KEY, timeoutMs: 100 })
    expect(answer).toMatchObject({
      status: 504,
      failure: 'proxy_timeout',
      headers: { 'content-type': 'application/json' },
    })
    expect(JSON.parse(text(answer.body))).toEqual({ code: 'proxy_timeout', message: expect.stringContaining('0.1 s'), status: 504 })
    expect(JSON.stringify({ ...answer, body: text(answer.body) })).not.toContain(KEY)
  }
})

test('an unreachable target is 502 proxy_unreachable, naming the target but never the key', async () => {
  const port = await closedPort()
  const answer = await forward(request(), { target: `http://127.0.0.1:${port}/v1`, key: KEY })
  expect(answer).toMatchObject({ status: 502, failure: 'proxy_unreachable' })
  const body = JSON.parse(text(answer.body))
  expect(body).toMatchObject({ code: 'proxy_unreachable', status: 502 })
  expect(body.message).toContain(`http://127.0.0.1:${port}/v1`)
  expect(body.message).toContain('ECONNREFUSED')
  expect(body.message).not.toContain(KEY)
})

test('an answer over the bound is 502 proxy_answer_too_large, cut off as soon as it passes', async () => {
  standIn = await startStandIn((_, res) => {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' })
    const piece = Buffer.alloc(1024, 120)
    // Streams for as long as the reader reads: the forward must stop it.
    const pump = () => {
      while (!res.destroyed && res.write(piece));
      if (!res.destroyed) res.once('drain', pump)
    }
    pump()
  })
  const answer = await forward(request(), { target: `${standIn.origin}/v1`, key: KEY, maxAnswerBytes: 64 * 1024 })
  expect(answer).toMatchObject({ status: 502, failure: 'proxy_answer_too_large' })
  expect(JSON.parse(text(answer.body)).code).toBe('proxy_answer_too_large')
  await standIn.aborted
})

test('a declared Content-Length over the bound is refused before the body is read', async () => {
  standIn = await startStandIn((_, res) => res.writeHead(200, { 'Content-Length': String(10 * 1024 * 1024) }).write('x'))
  const answer = await forward(request(), { target: `${standIn.origin}/v1`, maxAnswerBytes: 1024 })
  expect(answer.failure).toBe('proxy_answer_too_large')
})

test('dot segments that would leave the base, and TRACE, are refused with a 400', async () => {
  standIn = await startStandIn((_, res) => res.end())
  await expect(forward(request({ target: '/../admin' }), { target: `${standIn.origin}/v1`, key: KEY })).rejects.toMatchObject({
    status: 400,
    code: 'invalid_request',
  })
  await expect(forward(request({ method: 'TRACE' }), { target: `${standIn.origin}/v1` })).rejects.toBeInstanceOf(ApiError)
  expect(standIn.seen).toHaveLength(0)
})

test("the client's abort stops the forward and is thrown", async () => {
  standIn = await startStandIn(() => {})
  const controller = new AbortController()
  const pending = forward(request({ signal: controller.signal }), { target: `${standIn.origin}/v1` })
  setTimeout(() => controller.abort(new Error('client gone')), 20)
  await expect(pending).rejects.toThrow('client gone')
})

test('an answer that is not HTTP, is cut off, or has a header Node cannot send is 502 proxy_bad_answer; no answer at all stays proxy_unreachable', async () => {
  rawTarget = await startRawTarget({ ...HOSTILE_ANSWERS, silent: '' })
  // Closed before a byte came: the target answered nothing, as if it could not be reached.
  const silent = await forward(request({ target: '/silent' }), { target: `${rawTarget.origin}/v1` })
  expect(silent).toMatchObject({ status: 502, failure: 'proxy_unreachable' })
  for (const name of Object.keys(HOSTILE_ANSWERS)) {
    const answer = await forward(request({ target: `/hostile/${name}` }), { target: `${rawTarget.origin}/v1`, key: KEY })
    expect(answer, name).toMatchObject({ status: 502, failure: 'proxy_bad_answer' })
    const body = JSON.parse(text(answer.body))
    expect(body, name).toEqual({ code: 'proxy_bad_answer', message: expect.stringContaining(`${rawTarget.origin}/v1`), status: 502 })
    expect(body.message, name).not.toContain(KEY)
  }
})

test('a header value Fetch takes but Node refuses makes an answer unsendable; a name holding the key is not shown', () => {
  expect(unsendable(200, new Headers({ 'X-Ok': 'caf\xe9\ttab' }), KEY)).toBeNull()
  for (const value of ['a\x01b', 'a\x7fb', 'a\x1bb'])
    expect(unsendable(200, new Headers({ 'X-Value': value }), KEY)).toBe('with a control character in the value of its header "x-value"')
  const named = new Headers()
  named.append(KEY, 'a\x01')
  expect(unsendable(200, named, KEY)).toBe(
    'with a control character in the value of its header (its name not shown: it holds the proxy key)',
  )
})

test("a passed-back answer carries Content-Security-Policy: sandbox, in place of the target's own", async () => {
  standIn = await startStandIn((_, res) =>
    res
      .writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': 'default-src *; sandbox allow-same-origin allow-scripts' })
      .end('<script>fetch("/__sim/state")</script>'),
  )
  const answer = await forward(request(), { target: `${standIn.origin}/v1` })
  expect(answer.headers).toMatchObject({ 'content-type': 'text/html', 'content-security-policy': 'sandbox' })
})
