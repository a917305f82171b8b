import { expect, test } from 'vitest'
import type { Route } from '../routes/route-table.js'
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

test('a JSON answer below 500 becomes a route of its path, without the query; int64 digits kept', () => {
  expect(recordedRoute(exchange())).toEqual({
    route: {
      method: 'GET',
      path: '/store/inventory',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { sold: 3, id: 9007199254740993n },
    },
  })
  expect(recordedRoute(exchange({ status: 404 }), KEY)).toHaveProperty('route.status', 404)
  expect(recordedRoute(exchange({}, '/store/inventory/'))).toHaveProperty('route.path', '/store/inventory')
})

test('a text answer keeps its Content-Type, so it is sent back as it came; an empty one has no body', () => {
  expect(recordedRoute(exchange({ headers: { 'content-type': 'text/plain; charset=utf-8' }, body: encode('pong') }))).toEqual({
    route: { method: 'GET', path: '/store/inventory', status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'pong' },
  })
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
  expect(recordedRoute(exchange({ body: encode(`{"echo":"${KEY}"}`) }), KEY)).toEqual({ skipped: 'the body carries the proxy key' })
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
  expect(JSON.stringify(decision, (_, value) => (typeof value === 'bigint' ? String(value) : value))).not.toContain(KEY)
})

test("the first per method and path is kept; a spec operation's path is never a route", () => {
  let routes: readonly Route[] = []
  routes = recordInto(routes, exchange({ status: 500 }))
  expect(routes).toHaveLength(0)
  routes = recordInto(routes, exchange({ body: encode('{"first":true}') }))
  routes = recordInto(routes, exchange({ body: encode('{"first":false}') }, '/store/inventory?other'))
  routes = recordInto(routes, { ...exchange(), method: 'POST' })
  expect(routes.map((route) => [route.method, route.body])).toEqual([
    ['GET', { first: true }],
    ['POST', { sold: 3, id: 9007199254740993n }],
  ])
  expect(recordedRoute(exchange({}, '/store/orders'))).toHaveProperty('skipped', expect.stringContaining('listOrders'))
})
