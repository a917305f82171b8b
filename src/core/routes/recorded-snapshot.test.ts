import * as v from 'valibot'
import { expect, test } from 'vitest'
import { stringifyExactJson } from '../exact-json.js'
import { type AnswerToRecord, routeOfAnswer } from '../proxy/record.js'
import { type RecordedRouteSnapshot, recordedRouteOf, recordedRouteSnapshot, recordedRouteSnapshotSchema } from './recorded-snapshot.js'
import { createRouteBook, heldBytes, shownRoute } from './route-book.js'
import type { Route } from './route-schema.js'
import { type HeldRoute, routeReply } from './route-table.js'

const encode = (text: string) => new TextEncoder().encode(text)

/** What recording makes of an answer, which must be recorded. */
function recorded(answer: Partial<AnswerToRecord> & { target: string }): HeldRoute {
  const type = answer.contentType ?? 'application/json'
  const decision = routeOfAnswer({
    method: 'GET',
    status: 200,
    headers: [
      ['content-type', type],
      ['x-note', 'kept'],
    ],
    contentType: type,
    body: encode('{"sold":3,"id":9007199254740993}'),
    ...answer,
  })
  if ('skipped' in decision) throw new Error(decision.skipped)
  return decision.route
}

const scenarioRoutes: Route[] = [{ method: 'GET', path: '/health', status: 200, body: 'ok' }]

/** Every recording kind: JSON with an int64, text with bytes past ASCII, a query, no body, a status below 500. */
function recordedRoutes(): HeldRoute[] {
  return [
    recorded({ target: '/store/inventory?x=1&y=%C3%A9' }),
    recorded({ target: '/notes', contentType: 'text/plain; charset=utf-8', body: encode('héllo\n\u2603 ') }),
    recorded({ target: '/gone', status: 404, body: encode('[]') }),
    recorded({ target: '/empty', status: 204, body: new Uint8Array() }),
    recorded({ target: '/head', method: 'HEAD' }),
  ]
}

test('recorded routes come back as they were recorded: listed, shown, answered, and charged alike', () => {
  let charged = 0
  const book = createRouteBook(scenarioRoutes, (bytes) => (charged += bytes))
  for (const route of recordedRoutes()) expect(book.add(route)).toBe(true)
  expect(book.recordedRoutes()).toEqual(book.list().slice(1))

  const snapshot = JSON.parse(JSON.stringify(book.recordedRoutes().map(recordedRouteSnapshot))) as RecordedRouteSnapshot[]
  expect(snapshot[0]).toEqual({
    method: 'GET',
    path: '/store/inventory',
    query: { x: '1', y: 'é' },
    status: 200,
    headers: { 'content-type': 'application/json', 'x-note': 'kept' },
    bodyBase64: btoa('{"sold":3,"id":9007199254740993}'),
  })
  for (const entry of snapshot) expect(v.parse(recordedRouteSnapshotSchema, entry)).toEqual(entry)

  let copyCharged = 0
  const copy = createRouteBook(scenarioRoutes, (bytes) => (copyCharged += bytes))
  for (const entry of snapshot) expect(copy.add(recordedRouteOf(entry))).toBe(true)
  expect(copyCharged).toBe(charged)
  expect(copy.list().map(shownRoute)).toEqual(book.list().map(shownRoute))
  expect(copy.list().map(routeReply)).toEqual(book.list().map(routeReply))
  expect(copy.list().map(heldBytes)).toEqual(book.list().map(heldBytes))
  expect(copy.recordedRoutes().map(recordedRouteSnapshot)).toEqual(snapshot)
  // Shown, the JSON body keeps its int64 digits; the text body stays text.
  expect(stringifyExactJson(shownRoute(copy.list()[1] as HeldRoute).body)).toBe('{"sold":3,"id":9007199254740993}')
  expect(shownRoute(copy.list()[2] as HeldRoute).body).toBe('héllo\n\u2603 ')
  expect(copy.match('GET', '/store/inventory', 'y=%C3%A9&x=1')).toMatchObject({ index: 1 })
})

test('the revision moves when a route is recorded and on a reset, never on a read or a route not added', () => {
  const book = createRouteBook(scenarioRoutes)
  const moves = (step: () => unknown) => {
    const before = book.revision()
    step()
    return book.revision() !== before
  }
  const route = recorded({ target: '/store/inventory' })
  expect(moves(() => book.add(route))).toBe(true)
  // Answered already by the route just added: not added again.
  expect(moves(() => book.add(route))).toBe(false)
  expect(moves(() => [book.list(), book.recordedRoutes(), book.match('GET', '/store/inventory', ''), book.recorded(1)])).toBe(false)
  expect(moves(() => book.reset(scenarioRoutes))).toBe(true)
  expect(book.recordedRoutes()).toEqual([])
})

test('a recording from outside is refused unless recording would keep exactly it', () => {
  const good = recordedRouteSnapshot(recordedRoutes()[0] as HeldRoute)
  const text = recordedRouteSnapshot(recordedRoutes()[1] as HeldRoute)
  const bad: [string, unknown][] = [
    ['an unknown key', { ...good, auth: false }],
    ['a spec operation', { ...good, path: '/store/orders', query: undefined }],
    ['a server error', { ...good, status: 500 }],
    ['a status out of range', { ...good, status: 99 }],
    ['a method routes do not take', { ...good, method: 'TRACE' }],
    ['a path with a query', { ...good, path: '/store/inventory?x=1' }],
    ['a path with a template', { ...good, path: '/store/{id}' }],
    ['a path that escapes', { ...good, path: '/store/../admin' }],
    ['a query value past 2,048 code points', { ...good, query: { q: '\u{1F600}'.repeat(2049) } }],
    ['a query name past 256 code points', { ...good, query: { ['\u{1F600}'.repeat(257)]: 'v' } }],
    ['a header value that holds a character Node cannot send', { ...good, headers: { ...good.headers, 'x-note': '\u{1F600}' } }],
    ['a credential header, which recording drops', { ...good, headers: { ...good.headers, authorization: 'Bearer secret' } }],
    ['a hop-by-hop header', { ...good, headers: { ...good.headers, connection: 'close' } }],
    ['a header in capitals, which recording lowers', { ...good, headers: { 'Content-Type': 'application/json' } }],
    ['a header with a control character', { ...good, headers: { ...good.headers, 'x-note': 'a\nb' } }],
    ['a credential query parameter', { ...good, query: { ...good.query, api_key: 'secret' } }],
    ['a __proto__ query name', { ...good, query: JSON.parse('{"__proto__":"x"}') }],
    ['a __proto__ key', JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(good).slice(1)}`)],
    ['too many query names', { ...good, query: Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`q${index}`, 'v'])) }],
    ['a body that is not base64', { ...good, bodyBase64: 'not base64!' }],
    ['a body in non-canonical base64', { ...good, bodyBase64: 'e30' }],
    ['a body labelled JSON that is not', { ...good, bodyBase64: btoa('{"a":') }],
    ['a body that is not UTF-8', { ...text, bodyBase64: btoa('\xff\xfe') }],
    ['a body over 1 MiB', { ...text, bodyBase64: btoa('a'.repeat(1024 * 1024 + 3)) }],
    ['a body with no type', { ...good, headers: undefined }],
    ['a body on a 204', { ...good, status: 204 }],
  ]
  for (const [why, input] of bad) expect(v.safeParse(recordedRouteSnapshotSchema, input).success, why).toBe(false)
  expect(() => recordedRouteOf({ ...good, status: 500 })).toThrow(
    /^the recorded route GET \/store\/inventory is not one recording keeps: status 500/,
  )
  expect(() => recordedRouteOf({ ...good, headers: { ...good.headers, cookie: 'a=b' } })).toThrow(/is not as recording would keep it/)
})

test('whatever recording keeps comes back: 70 headers, a 9,000-character value, 1,500 emoji in a query, a long path', () => {
  const headers: [string, string][] = Array.from({ length: 70 }, (_, index) => [`x-header-${index}`, `value ${index}`])
  headers.push(['content-type', 'application/json'], ['x-long', 'v'.repeat(9000)])
  const emoji = '\u{1F600}'.repeat(1500)
  // Characters a query must escape, and 32 values of 2,000 characters that URLSearchParams would write three times as long.
  const awkward = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`k${index}=`, `a/b&c+d%e#f=é ${'/'.repeat(1990)}`]))
  const awkwardTarget = Object.entries(awkward)
    .map(([name, value]) => `${name.replace('=', '%3D')}=${value.replace(/[&+%#]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}`)
    .join('&')
  const targets = [`/search?q=${encodeURIComponent(emoji)}&n=1`, `/notes?${awkwardTarget}`, `/${'a'.repeat(10_000)}`]
  const routes = targets.map((target) => recorded({ target, headers }))
  expect(Object.keys(routes[0]?.headers ?? {})).toHaveLength(72)
  expect(routes[0]?.query).toEqual({ q: emoji, n: '1' })
  expect(routes[1]?.query).toEqual(awkward)

  const book = createRouteBook(scenarioRoutes)
  for (const route of routes) expect(book.add(route)).toBe(true)
  const snapshot = JSON.parse(JSON.stringify(book.recordedRoutes().map(recordedRouteSnapshot))) as RecordedRouteSnapshot[]
  const copy = createRouteBook(scenarioRoutes)
  for (const entry of snapshot) {
    expect(v.parse(recordedRouteSnapshotSchema, entry)).toEqual(entry)
    expect(copy.add(recordedRouteOf(entry))).toBe(true)
  }
  expect(copy.list().map(shownRoute)).toEqual(book.list().map(shownRoute))
  expect(copy.list().map(routeReply)).toEqual(book.list().map(routeReply))
  expect(copy.recordedRoutes().map(recordedRouteSnapshot)).toEqual(snapshot)
})
