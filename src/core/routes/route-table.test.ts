import { expect, test } from 'vitest'
import { type Fail, MAX_ROUTE_BODY_BYTES, MAX_ROUTES, parseRoutes } from './parse-routes.js'
import { createRouteTable, type Lookup, type Route, routeReply } from './route-table.js'

const fail: Fail = (field, problem) => {
  throw Object.assign(new Error(problem), { field })
}

/** The message (and field) parseRoutes gives for one route. */
function problemOf(route: unknown, index = 0): { field: string; message: string } {
  const routes = [...Array.from({ length: index }, () => ({ method: 'GET', path: '/ok', status: 200 })), route]
  try {
    parseRoutes(routes, fail)
  } catch (error) {
    return { field: (error as { field: string }).field, message: (error as Error).message }
  }
  throw new Error('expected a problem')
}

/** The place of the route a lookup found, else what it found. */
const indexOf = (lookup: Lookup) => ('index' in lookup ? lookup.index : lookup)

test('a literal segment beats {name} where both match; the first declared wins between routes of one shape', () => {
  const routes: Route[] = [
    { method: 'GET', path: '/store/orders/{id}/items', status: 200, body: 'template' },
    { method: 'GET', path: '/store/{area}/7/items', status: 200, body: 'later literal' },
    { method: 'GET', path: '/store/orders/7/items', status: 200, body: 'literal' },
    { method: 'GET', path: '/store/orders/{other}/items', status: 200, body: 'same shape, later' },
    { method: 'POST', path: '/store/orders', status: 201 },
  ]
  const table = createRouteTable(routes)
  expect(indexOf(table.match('GET', '/store/orders/7/items'))).toBe(2)
  expect(indexOf(table.match('GET', '/store/orders/8/items'))).toBe(0)
  expect(indexOf(table.match('GET', '/store/carts/7/items'))).toBe(1)
  // A query is no part of the path; one trailing slash is tolerated, as the operations tolerate it.
  expect(indexOf(table.match('GET', '/store/orders/8/items/?page=2'))).toBe(0)
  expect(table.match('POST', '/store/orders')).toMatchObject({ route: { status: 201 } })
  // The spec's operations are entries of the same table, and a path's methods are what its 405 allows.
  expect(table.match('GET', '/store/orders')).toMatchObject({ operation: { id: 'listOrders' }, param: '' })
  expect(table.match('DELETE', '/store/orders/%37')).toMatchObject({ operation: { id: 'cancelOrder' }, param: '7' })
  expect(table.match('GET', '/store/orders//items')).toEqual({ allow: [] })
  expect(table.match('PUT', '/store/orders')).toEqual({ allow: ['GET', 'POST'] })
  expect(table.match('PUT', '/store/orders/7')).toEqual({ allow: ['DELETE'] })
})

test('"/" is the base itself', () => {
  const table = createRouteTable([{ method: 'GET', path: '/', status: 200 }])
  expect(indexOf(table.match('GET', ''))).toBe(0)
  expect(indexOf(table.match('GET', '/?x=1'))).toBe(0)
})

test('a route may not replace a spec operation, in any equivalent form, and the message names both', () => {
  expect(problemOf({ method: 'GET', path: '/store/orders', status: 200 }, 2)).toEqual({
    field: 'routes[2]',
    message: "routes[2] would replace the spec's operation listOrders",
  })
  expect(problemOf({ method: 'DELETE', path: '/store/orders/{x}', status: 204 }).message).toContain('cancelOrder')
  expect(problemOf({ method: 'DELETE', path: '/store/orders/7', status: 204 }).message).toContain('cancelOrder')
  expect(problemOf({ method: 'GET', path: '/pets/{id}', status: 200 }).message).toContain('getPetById')
  expect(problemOf({ method: 'GET', path: '/pets/rex', status: 200 }).message).toContain('getPetById')
  // Other methods on the same paths, and wider templates the operations still win over, are routes.
  expect(
    parseRoutes(
      [
        { method: 'POST', path: '/store/orders', status: 201 },
        { method: 'GET', path: '/{area}/{id}', status: 200 },
      ],
      fail,
    ),
  ).toHaveLength(2)
})

test('bad methods, paths, statuses and headers are refused naming the route and the field', () => {
  expect(problemOf({ method: 'get', path: '/x', status: 200 })).toMatchObject({
    field: 'routes[0].method',
    message: expect.stringContaining('"GET", "HEAD", "POST"'),
  })
  expect(problemOf({ method: 'TRACE', path: '/x', status: 200 }).field).toBe('routes[0].method')
  // A query has its own field: the message says to name it there.
  expect(problemOf({ method: 'GET', path: '/x?y=1', status: 200 })).toMatchObject({ message: expect.stringContaining('in "query"') })
  for (const path of ['store/inventory', '/x/', '/x//y', '/x/../y', '/x/{id}.json', '/x#y'])
    expect(problemOf({ method: 'GET', path, status: 200 })).toMatchObject({
      field: 'routes[0].path',
      message: expect.stringContaining('must be a path under the base'),
    })
  expect(problemOf({ method: 'GET', path: '/x', status: 99 })).toEqual({
    field: 'routes[0].status',
    message: 'routes[0].status must be between 200 and 599, got 99',
  })
  expect(problemOf({ method: 'GET', path: '/x', status: 200.5 }).field).toBe('routes[0].status')
  expect(problemOf({ method: 'GET', path: '/x', status: '200' }).field).toBe('routes[0].status')
  expect(problemOf({ method: 'GET', path: '/x', status: 200, headers: ['a'] }).field).toBe('routes[0].headers')
  expect(problemOf({ method: 'GET', path: '/x', status: 200, headers: { 'X-N': 5 } })).toEqual({
    field: 'routes[0].headers.X-N',
    message: 'routes[0].headers.X-N must be a string, got 5',
  })
  expect(problemOf({ method: 'GET', path: '/x', status: 200, headers: { 'Bad Name': 'v' } }).field).toBe('routes[0].headers.Bad Name')
  expect(problemOf({ method: 'GET', path: '/x', stauts: 200 }).message).toContain('unknown field routes[0].stauts')
  expect(problemOf({ method: 'GET', path: '/x', status: 200, auth: 'no' }).field).toBe('routes[0].auth')
})

test("a header value Node's writeHead would refuse is refused at load, naming the header and the character", () => {
  const cases: [string, string][] = [
    ['a\r\nX-B: b', 'U+000D'],
    ['\u20ac 5', 'U+20AC'],
    ['line\u2028break', 'U+2028'],
    ['\u0001', 'U+0001'],
    ['del\u007f', 'U+007F'],
    ['nul\0', 'U+0000'],
  ]
  for (const [value, character] of cases)
    expect(problemOf({ method: 'GET', path: '/x', status: 200, headers: { 'Cache-Control': 'no-store', 'x-note': value } }, 2)).toEqual({
      field: 'routes[2].headers.x-note',
      message: `routes[2].headers.x-note must be a header value Node can send (tab, U+0020 to U+007E, U+0080 to U+00FF), got ${character}`,
    })
  // Tab, printable ASCII and latin1 are what Node sends as they are; Set-Cookie and the like are the route's to set.
  const headers = { 'X-Latin1': 'caf\u00e9\t\u00ff', 'Set-Cookie': 'a=b', 'Content-Security-Policy': "default-src 'none'" }
  expect(parseRoutes([{ method: 'GET', path: '/x', status: 200, headers }], fail)[0]?.headers).toEqual(headers)
})

test('CORS, hop-by-hop and framing headers are refused in any case, each saying why; so is one name in two cases', () => {
  const refused: [string, string][] = [
    ['Access-Control-Allow-Origin', 'the simulator answers CORS itself'],
    ['access-control-expose-headers', 'the simulator answers CORS itself'],
    ['Connection', 'hop-by-hop'],
    ['Keep-Alive', 'hop-by-hop'],
    ['TE', 'hop-by-hop'],
    ['Trailer', 'hop-by-hop'],
    ['Transfer-Encoding', 'hop-by-hop'],
    ['UPGRADE', 'hop-by-hop'],
    ['Proxy-Authenticate', 'hop-by-hop'],
    ['Content-Length', 'sets the length of the body itself'],
    ['Content-Encoding', 'sends it unencoded'],
  ]
  for (const [name, why] of refused) {
    const problem = problemOf({ method: 'GET', path: '/x', status: 200, headers: { [name]: 'x' } }, 1)
    expect(problem.field).toBe(`routes[1].headers.${name}`)
    expect(problem.message).toMatch(new RegExp(`^routes\\[1\\]\\.headers\\.${name} is refused: .*${why}`))
  }
  expect(
    problemOf({ method: 'GET', path: '/x', status: 200, headers: { 'Content-Type': 'text/plain', 'content-type': 'text/html' } }),
  ).toEqual({
    field: 'routes[0].headers.content-type',
    message: 'routes[0].headers.content-type repeats the header Content-Type (header names ignore case): keep one',
  })
})

test('a header name that is not a token is refused, shown on one line', () => {
  for (const [name, shown] of [
    ['Bad Name', 'Bad Name'],
    ['x:y', 'x:y'],
    ['caf\u00e9', 'caf\\u00e9'],
    ['a\nb', 'a\\u000ab'],
    ['', ''],
  ]) {
    const problem = problemOf({ method: 'GET', path: '/x', status: 200, headers: { [name as string]: 'v' } })
    expect(problem.field).toBe(`routes[0].headers.${shown}`)
    expect(problem.message).toBe(
      `routes[0].headers.${shown} is not a header name: letters, digits and !#$%&'*+-.^_\`|~ only (an RFC 9110 token)`,
    )
  }
})

test('bodies: any JSON within 1 MiB, none on HEAD or 204', () => {
  expect(problemOf({ method: 'GET', path: '/x', status: 200, body: 'x'.repeat(MAX_ROUTE_BODY_BYTES) }).message).toContain('1 MiB')
  expect(problemOf({ method: 'GET', path: '/x', status: 204, body: {} }).message).toContain('204')
  expect(problemOf({ method: 'HEAD', path: '/x', status: 200, body: {} }).message).toContain('HEAD')
  const [route] = parseRoutes([{ method: 'GET', path: '/x', status: 200, body: { id: 9007199254740993n, list: [null, true] } }], fail)
  expect(routeReply(route as Route)).toEqual({
    status: 200,
    headers: { 'Content-Type': 'application/json', 'Content-Security-Policy': 'sandbox' },
    body: '{"id":9007199254740993,"list":[null,true]}',
  })
})

test('at most 1,000 routes', () => {
  const routes = Array.from({ length: MAX_ROUTES + 1 }, (_, index) => ({ method: 'GET', path: `/r/${index}`, status: 200 }))
  expect(() => parseRoutes(routes, fail)).toThrow('routes holds over 1000 routes')
  expect(parseRoutes(routes.slice(1), fail)).toHaveLength(MAX_ROUTES)
})

test('a string body under a Content-Type that is not JSON is sent as it is', () => {
  const reply = routeReply({ method: 'GET', path: '/x', status: 200, headers: { 'content-type': 'text/plain' }, body: 'hello' })
  expect(reply).toEqual({ status: 200, headers: { 'content-type': 'text/plain', 'Content-Security-Policy': 'sandbox' }, body: 'hello' })
  expect(routeReply({ method: 'POST', path: '/x', status: 202 }).body).toBeNull()
})
