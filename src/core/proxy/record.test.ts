import { expect, test } from 'vitest'
import { stringifyExactJson } from '../exact-json.js'
import { createRouteBook, shownRoute } from '../routes/route-book.js'
import { type HeldRoute, routeReply } from '../routes/route-table.js'
import { type RecordedExchange, recordedRoute, recordInto } from './record.js'

const KEY = 'real-service-key-0123456789'
const encode = (text: string) => new TextEncoder().encode(text)

function exchange(overrides: Partial<RecordedExchange['answer']> = {}, target = '/store/inventory?x=1'): RecordedExchange {
  return {
    method: 'GET',
    target,
    answer: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: encode('{"sold":3,"id":9007199254740993}'),
      ...overrides,
    },
  }
}

/** The route of an exchange, which must be recorded. */
function routeOf(recorded: RecordedExchange, key?: string): HeldRoute {
  const decision = recordedRoute(recorded, key)
  if ('skipped' in decision) throw new Error(`not recorded: ${decision.skipped}`)
  return decision.route
}

test('a JSON answer below 500 becomes a route of its path, without the query; shown, its int64 digits are kept', () => {
  const route = routeOf(exchange())
  expect(shownRoute(route)).toEqual({
    method: 'GET',
    path: '/store/inventory',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: { sold: 3, id: 9007199254740993n },
  })
  expect(recordedRoute(exchange({ status: 404 }), KEY)).toHaveProperty('route.status', 404)
  expect(recordedRoute(exchange({}, '/store/inventory/'))).toHaveProperty('route.path', '/store/inventory')
})

test('a recorded body is held as the bytes that came, answered byte for byte, and saved as the same value', () => {
  // Spacing, an exponent, an escape and a 19-digit integer: a parse and a write would change every one of them.
  const sent = '{ "n": 1e2, "name": "caf\\u00e9",\n  "id": 1234567890123456789, "list": [1.50, {}] }'
  const route = routeOf(exchange({ body: encode(sent) }))
  // Nothing parsed is kept: no body value, only the bytes.
  expect(route.body).toBeUndefined()
  expect(new TextDecoder().decode(route.raw?.bytes)).toBe(sent)
  const reply = routeReply(route)
  expect(reply.body).toBeInstanceOf(Uint8Array)
  expect(new TextDecoder().decode(reply.body as Uint8Array)).toBe(sent)
  expect(reply.headers['content-type']).toBe('application/json')
  // As a scenario writes it (GET /__sim/state, export, save): the value, every digit kept.
  const shown = shownRoute(route)
  expect(shown.body).toEqual({ n: 100, name: 'café', id: 1234567890123456789n, list: [1.5, {}] })
  expect(stringifyExactJson(shown.body)).toBe('{"n":100,"name":"café","id":1234567890123456789,"list":[1.5,{}]}')
})

test('a text answer keeps its Content-Type and its bytes, so it is sent back as it came; an empty one has no body', () => {
  const text = routeOf(exchange({ headers: { 'content-type': 'text/plain; charset=utf-8' }, body: encode('pong\r\n') }))
  expect(shownRoute(text)).toEqual({
    method: 'GET',
    path: '/store/inventory',
    status: 200,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: 'pong\r\n',
  })
  expect(new TextDecoder().decode(routeReply(text).body as Uint8Array)).toBe('pong\r\n')
  expect(recordedRoute(exchange({ status: 204, headers: {}, body: new Uint8Array() }))).toEqual({
    route: { method: 'GET', path: '/store/inventory', status: 204 },
  })
})

test('not recorded: 500 and above, a failure, more than 1 MiB, a body neither JSON nor text, bad JSON, the key in the body', () => {
  expect(recordedRoute(exchange({ status: 500 }))).toEqual({ skipped: 'status 500 is not recorded (500 and above)' })
  expect(recordedRoute(exchange({ status: 504, failure: 'proxy_timeout' }))).toHaveProperty('skipped')
  expect(recordedRoute(exchange({ body: encode(`"${'x'.repeat(1024 * 1024)}"`) }))).toHaveProperty(
    'skipped',
    expect.stringContaining('1 MiB'),
  )
  expect(recordedRoute(exchange({ headers: { 'content-type': 'image/png' }, body: new Uint8Array([137, 80]) }))).toHaveProperty('skipped')
  expect(recordedRoute(exchange({ body: encode('{nope') }))).toHaveProperty('skipped', expect.stringContaining('not valid JSON'))
  expect(recordedRoute(exchange({ body: encode('{"a":1,"a":2}') }))).toHaveProperty('skipped', expect.stringContaining('not valid JSON'))
  expect(recordedRoute(exchange({ body: encode(`{"echo":"${KEY}"}`) }), KEY)).toEqual({ skipped: 'the body carries the proxy key' })
  // Written with escapes, the key is still the key once the body is saved as its value.
  const escaped = `{"echo":"${KEY.replace('r', '\\u0072')}"}`
  expect(recordedRoute(exchange({ body: encode(escaped) }), KEY)).toEqual({ skipped: 'the body carries the proxy key' })
})

test('Authorization, cookies, Set-Cookie, any header carrying the key and per-answer headers are never written', () => {
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${KEY}`,
    cookie: 'session=abc',
    'set-cookie': 'session=abc; HttpOnly',
    'x-echo-key': `you sent ${KEY}`,
    'x-echo-encoded': encodeURIComponent(`${KEY}/`),
    date: 'Mon, 01 Jan 2026 00:00:00 GMT',
    'content-length': '30',
    'content-security-policy': 'sandbox',
    'access-control-allow-origin': '*',
    'x-request-id': 'r-1',
    constructor: 'a plain header',
  }
  const decision = recordedRoute(exchange({ headers }), KEY)
  expect(decision).toHaveProperty('route.headers', {
    'content-type': 'application/json',
    'x-request-id': 'r-1',
    constructor: 'a plain header',
  })
  expect(
    JSON.stringify(shownRoute(routeOf(exchange({ headers }), KEY)), (_, value) => (typeof value === 'bigint' ? String(value) : value)),
  ).not.toContain(KEY)
})

test('a header whose name holds the key, as sent or percent-encoded and in any case, is never written', () => {
  const key = 'Real+Service~Key.0123456789'
  const headers = {
    'content-type': 'application/json',
    [`x-${key.toLowerCase()}`]: 'yes',
    [`x-${encodeURIComponent(key).toLowerCase()}-seen`]: 'yes',
    'x-request-id': 'r-1',
  }
  expect(routeOf(exchange({ headers }), key).headers).toEqual({ 'content-type': 'application/json', 'x-request-id': 'r-1' })
})

test("the book keeps the first per method and path; a spec operation's path is never a route", () => {
  const book = createRouteBook([])
  expect(recordInto(book, exchange({ status: 500 }))).toBe(false)
  expect(book.list()).toHaveLength(0)
  expect(recordInto(book, exchange({ body: encode('{"first":true}') }))).toBe(true)
  expect(recordInto(book, exchange({ body: encode('{"first":false}') }, '/store/inventory?other'))).toBe(false)
  expect(recordInto(book, { ...exchange(), method: 'POST' })).toBe(true)
  expect(book.list().map((route) => [route.method, shownRoute(route).body])).toEqual([
    ['GET', { first: true }],
    ['POST', { sold: 3, id: 9007199254740993n }],
  ])
  expect(book.match('GET', '/store/inventory?y')).toMatchObject({ index: 0 })
  expect(recordedRoute(exchange({}, '/store/orders'))).toHaveProperty('skipped', expect.stringContaining('listOrders'))
})
