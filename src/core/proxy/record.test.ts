import { expect, test } from 'vitest'
import { stringifyExactJson } from '../exact-json.js'
import { createRouteBook, shownRoute } from '../routes/route-book.js'
import { type HeldRoute, routeReply } from '../routes/route-table.js'
import { type RecordedExchange, recordedRoute, recordInto, replaysAsRecorded } from './record.js'

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

test("a JSON answer below 500 becomes a route of its path and its query's parameters; shown, its int64 digits are kept", () => {
  const route = routeOf(exchange())
  expect(shownRoute(route)).toEqual({
    method: 'GET',
    path: '/store/inventory',
    query: { x: '1' },
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
    query: { x: '1' },
    status: 200,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: 'pong\r\n',
  })
  expect(new TextDecoder().decode(routeReply(text).body as Uint8Array)).toBe('pong\r\n')
  expect(recordedRoute(exchange({ status: 204, headers: {}, body: new Uint8Array() }))).toEqual({
    route: { method: 'GET', path: '/store/inventory', query: { x: '1' }, status: 204 },
  })
})

test('not recorded: 500 and above, a failure, more than 1 MiB, a body neither JSON nor text, bad JSON, the key in the body', () => {
  expect(recordedRoute(exchange({ status: 500 }))).toEqual({
    skipped: 'status 500 is not recorded (500 and above)',
    category: 'server error',
  })
  expect(recordedRoute(exchange({ status: 504, failure: 'proxy_timeout' }))).toHaveProperty('skipped')
  expect(recordedRoute(exchange({ body: encode(`"${'x'.repeat(1024 * 1024)}"`) }))).toHaveProperty(
    'skipped',
    expect.stringContaining('1 MiB'),
  )
  expect(recordedRoute(exchange({ headers: { 'content-type': 'image/png' }, body: new Uint8Array([137, 80]) }))).toHaveProperty('skipped')
  expect(recordedRoute(exchange({ body: encode('{nope') }))).toHaveProperty('skipped', expect.stringContaining('not valid JSON'))
  expect(recordedRoute(exchange({ body: encode('{"a":1,"a":2}') }))).toHaveProperty('skipped', expect.stringContaining('not valid JSON'))
  expect(recordedRoute(exchange({ body: encode(`{"echo":"${KEY}"}`) }), KEY)).toEqual({
    skipped: 'the body carries the proxy key',
    category: 'carries the key',
  })
  // Written with escapes, the key is still the key once the body is saved as its value.
  const escaped = `{"echo":"${KEY.replace('r', '\\u0072')}"}`
  expect(recordedRoute(exchange({ body: encode(escaped) }), KEY)).toHaveProperty('skipped', 'the body carries the proxy key')
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

test('a JSON body holding a number past a double is not recorded: saved, 1e400 would read null', () => {
  expect(recordedRoute(exchange({ body: encode('{"n":[1,{"m":1e400}]}') }))).toMatchObject({
    category: 'not JSON',
    skipped: expect.stringContaining('1e400'),
  })
  expect(recordedRoute(exchange({ body: encode('{"n":-1e999}') }))).toHaveProperty('category', 'not JSON')
  expect(recordedRoute(exchange({ body: encode('{"n":1e300,"big":9007199254740993}') }))).toHaveProperty('route')
})

test('while recording, a recorded route replays only the query it was recorded with, credentials aside', () => {
  expect(replaysAsRecorded({ query: { q: 'cat' } }, '/search?q=cat&token=abc')).toBe(true)
  expect(replaysAsRecorded({ query: { q: 'cat' } }, '/search?page=2&q=cat')).toBe(false)
  expect(replaysAsRecorded({}, '/search')).toBe(true)
  expect(replaysAsRecorded({}, `/search?next=${KEY}`, KEY)).toBe(true)
  expect(replaysAsRecorded({}, '/search?q=cat')).toBe(false)
  // A query no route can hold is never replayed: it is forwarded, and not recorded.
  expect(replaysAsRecorded({}, '/search?tag=a&tag=b')).toBe(false)
})

test('a path the one path rule refuses (an import) is no route, said as that rule says it', () => {
  for (const target of ['/a;x=1', '/a%2fb', '/a%zz', '/a\\b'])
    expect(recordedRoute(exchange({}, target))).toMatchObject({
      category: 'not a route',
      skipped: expect.stringContaining('is refused: it has'),
    })
})

test('a path that repeats the API base is never recorded: its route would answer at the base twice', () => {
  const book = createRouteBook([])
  expect(recordInto(book, exchange({}, '/v1/store/inventory'), undefined, '/v1')).toBe(false)
  expect(recordedRoute(exchange({}, '/v1'), undefined, '/v1')).toMatchObject({ category: 'not a route' })
  expect(recordedRoute(exchange({}, '/v1/x'), undefined, '/v1')).toHaveProperty(
    'skipped',
    expect.stringContaining('starts with the API base /v1'),
  )
  // Under the root, or a base it only begins like, the path is an ordinary one.
  expect(recordInto(book, exchange({}, '/v1x/store'), undefined, '/v1')).toBe(true)
  expect(recordedRoute(exchange({}, '/v1/x'))).toHaveProperty('route.path', '/v1/x')
})

test("the book keeps the first per method, path and query; a spec operation's path is never a route", () => {
  const book = createRouteBook([])
  expect(recordInto(book, exchange({ status: 500 }))).toBe(false)
  expect(book.list()).toHaveLength(0)
  expect(recordInto(book, exchange({ body: encode('{"first":true}') }))).toBe(true)
  expect(recordInto(book, exchange({ body: encode('{"first":false}') }, '/store/inventory?x=1'))).toBe(false)
  expect(recordInto(book, exchange({ body: encode('{"other":true}') }, '/store/inventory?x=2'))).toBe(true)
  expect(recordInto(book, { ...exchange(), method: 'POST' })).toBe(true)
  expect(book.list().map((route) => [route.method, route.query, shownRoute(route).body])).toEqual([
    ['GET', { x: '1' }, { first: true }],
    ['GET', { x: '2' }, { other: true }],
    ['POST', { x: '1' }, { sold: 3, id: 9007199254740993n }],
  ])
  expect(book.match('GET', '/store/inventory?x=2&y')).toMatchObject({ index: 1 })
  expect(recordedRoute(exchange({}, '/store/orders'))).toEqual({
    skipped: "GET /store/orders is the spec's operation listOrders, which the simulator answers itself",
    category: 'spec operation',
  })
})

test('each skip has its category: no answer, server error, image, binary, not JSON, too large', () => {
  const category = (recorded: RecordedExchange) => {
    const decision = recordedRoute(recorded, KEY)
    return 'category' in decision ? decision.category : 'route'
  }
  expect(category(exchange({ status: 504, failure: 'proxy_timeout' }))).toBe('no answer')
  expect(category(exchange({ status: 503 }))).toBe('server error')
  expect(category(exchange({ headers: { 'content-type': 'image/png' }, body: new Uint8Array([137, 80]) }))).toBe('image')
  expect(category(exchange({ headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([0]) }))).toBe('binary')
  expect(category(exchange({ headers: {}, body: encode('{}') }))).toBe('binary')
  // Labelled text, but not UTF-8.
  expect(category(exchange({ headers: { 'content-type': 'text/plain' }, body: new Uint8Array([0xff, 0xfe]) }))).toBe('binary')
  expect(category(exchange({ body: encode('{nope') }))).toBe('not JSON')
  expect(category(exchange({ body: encode(`"${'x'.repeat(1024 * 1024)}"`) }))).toBe('too large')
  expect(category(exchange({}, '/store/{id}'))).toBe('not a route')
  expect(category(exchange({ headers: { 'content-type': 'text/csv' }, body: encode('a,b\n') }))).toBe('route')
})

/** The query a recorded route of `target` keeps. */
const queryOf = (target: string, key?: string) => routeOf(exchange({}, target), key).query

test('the query: each parameter decoded; credentials, the key, an empty name and __proto__ left out', () => {
  expect(queryOf('/store/inventory?q=caf%C3%A9&page=2&empty=')).toEqual({ q: 'café', page: '2', empty: '' })
  expect(queryOf('/store/inventory')).toBeUndefined()
  expect(queryOf('/store/inventory?')).toBeUndefined()
  expect(queryOf('/store/inventory?q=cat#frag=1')).toEqual({ q: 'cat' })
  // Named like a credential: left out whatever the value, so the route matches any value of it.
  const credentials = 'api_key=k1&access_token=t1&token=t2&X-Amz-Signature=s1&sessionid=s2&auth=a1&password=p1&key=k2'
  expect(queryOf(`/store/inventory?${credentials}&q=cat`)).toEqual({ q: 'cat' })
  // The proxy key as a value (as sent or percent-encoded) or a name, whatever the parameter's name.
  expect(queryOf(`/store/inventory?next=${KEY}&q=cat&${KEY}=1`, KEY)).toEqual({ q: 'cat' })
  expect(queryOf(`/store/inventory?next=${encodeURIComponent(`a ${KEY}`)}&q=cat`, KEY)).toEqual({ q: 'cat' })
  expect(queryOf('/store/inventory?__proto__=x&=nameless')).toBeUndefined()
  const proto = queryOf('/store/inventory?constructor=1&toString=2')
  expect(proto).toEqual({ constructor: '1', toString: '2' })
  expect(Object.getPrototypeOf(proto)).toBe(Object.prototype)
})

test('a name given twice or a control character skips the exchange: left out, the route would answer every other value', () => {
  const skipped = (target: string) => recordedRoute(exchange({}, target))
  expect(skipped('/store/inventory?tag=a&tag=b&q=cat')).toEqual({
    skipped: 'the query names "tag" twice, and a route holds one value a name',
    category: 'query not held',
  })
  expect(skipped('/store/inventory?q=%00')).toHaveProperty('category', 'query not held')
  expect(skipped('/store/inventory?r=%7F')).toHaveProperty('skipped', expect.stringContaining('"r"'))
  expect(skipped('/store/inventory?%1b%5b31m=1')).toHaveProperty('skipped', expect.stringContaining('\\u001b'))
  // A credential given twice is left out, as once: it never decides the match.
  expect(queryOf('/store/inventory?token=a&token=b&q=cat')).toEqual({ q: 'cat' })
})

test('a query past the bounds is skipped whole: over 32 names, a name over 256 or a value over 2048 characters, a huge text', () => {
  const skipped = (target: string) => recordedRoute(exchange({}, target))
  const names = (count: number) => Array.from({ length: count }, (_, index) => `p${index}=1`).join('&')
  expect(queryOf(`/store/inventory?${names(32)}`)).toHaveProperty('p31', '1')
  expect(skipped(`/store/inventory?${names(33)}`)).toEqual({ skipped: 'the query names over 32 parameters', category: 'query too large' })
  expect(queryOf(`/store/inventory?${'n'.repeat(256)}=${'v'.repeat(2048)}`)).toHaveProperty('n'.repeat(256))
  expect(skipped(`/store/inventory?${'n'.repeat(257)}=1`)).toHaveProperty('category', 'query too large')
  expect(skipped(`/store/inventory?q=${'v'.repeat(2049)}`)).toEqual({
    skipped: 'the query gives a value of 2049 characters, over 2048',
    category: 'query too large',
  })
  // Refused before it is parsed: a million names cost nothing.
  expect(skipped(`/store/inventory?${'a=1&'.repeat(1_000_000)}`)).toHaveProperty('category', 'query too large')
  // Left-out names do not count: 40 credentials and one kept parameter is a route.
  const tokens = Array.from({ length: 40 }, (_, index) => `token${index}=x`).join('&')
  expect(queryOf(`/store/inventory?${tokens}&q=cat`)).toEqual({ q: 'cat' })
})

test('routes per query: ?q=cat and ?q=rex are recorded each, and each request is answered by its own', () => {
  const book = createRouteBook([])
  expect(recordInto(book, exchange({ body: encode('["Tom"]') }, '/search?q=cat'))).toBe(true)
  expect(recordInto(book, exchange({ body: encode('["Rex"]') }, '/search?q=rex'))).toBe(true)
  const answered = (target: string) => {
    const found = book.match('GET', target)
    return 'route' in found ? new TextDecoder().decode(routeReply(found.route).body as Uint8Array) : 'none'
  }
  expect(answered('/search?q=cat')).toBe('["Tom"]')
  expect(answered('/search?q=rex&page=1')).toBe('["Rex"]')
  expect(answered('/search?q=dog')).toBe('none')
})
