import { beforeEach, expect, test, vi } from 'vitest'
import { createRouteBook, heldBytes, shownRoute } from './route-book.js'
import * as routePath from './route-path.js'
import { MAX_ROUTES, type Route } from './route-schema.js'
import * as table from './route-table.js'
import { createRouteTable, type HeldRoute, type Lookup, type RawBody } from './route-table.js'

// Counted, not replaced: how often a whole table is compiled, and how often one route's path is.
vi.mock('./route-table.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./route-table.js')>()
  return { ...actual, createRouteTable: vi.fn(actual.createRouteTable) }
})
vi.mock('./route-path.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./route-path.js')>()
  return { ...actual, templateSegments: vi.fn(actual.templateSegments) }
})

const compiles = () => vi.mocked(table.createRouteTable).mock.calls.length
const pathsCompiled = () => vi.mocked(routePath.templateSegments).mock.calls.length
/** The place of the route a lookup found, else what it found. */
const indexOf = (lookup: Lookup) => ('index' in lookup ? lookup.index : lookup)

beforeEach(() => vi.clearAllMocks())

/** A recorded route: its body held as bytes. */
function recorded(path: string, text = '{"ok":true}', method: Route['method'] = 'GET'): HeldRoute {
  const bytes = new TextEncoder().encode(text)
  const raw: RawBody = { bytes, value: () => JSON.parse(new TextDecoder().decode(bytes)) }
  return { method, path, status: 200, headers: { 'content-type': 'application/json' }, raw }
}

test('a route added to a compiled table answers by the same rules: the more specific first, then the first declared', () => {
  const routes: Route[] = [
    { method: 'GET', path: '/store/{area}/{id}', status: 200, body: 'template' },
    { method: 'GET', path: '/store/{area}/7', status: 200, body: 'half' },
  ]
  const compiled = createRouteTable(routes)
  compiled.add({ method: 'GET', path: '/store/orders/7', status: 200, body: 'literal' }, 2)
  compiled.add({ method: 'GET', path: '/store/{x}/{y}', status: 200, body: 'same shape, later' }, 3)
  compiled.add({ method: 'PATCH', path: '/store/orders/{id}', status: 204 }, 4)
  expect(indexOf(compiled.match('GET', '/store/orders/7'))).toBe(2)
  expect(indexOf(compiled.match('GET', '/store/carts/7'))).toBe(1)
  expect(indexOf(compiled.match('GET', '/store/carts/8'))).toBe(0)
  expect(compiled.match('GET', '/store/carts/8/9')).toEqual({ allow: [] })
  expect(compiled.match('GET', '/store//8')).toEqual({ allow: [] })
  // The spec's cancelOrder is the path's DELETE, named first; the routes' methods follow.
  expect(compiled.match('PUT', '/store/orders/7')).toEqual({ allow: ['DELETE', 'GET', 'PATCH'] })
  expect(compiled.match('PUT', '/elsewhere')).toEqual({ allow: [] })
})

test('a book compiles its table once per list, never per request, and one recorded route alone', () => {
  const scenario: Route[] = Array.from({ length: MAX_ROUTES / 2 }, (_, index) => ({
    method: 'GET',
    path: `/catalog/${'long-segment/'.repeat(40)}${index}`,
    status: 200,
  }))
  const book = createRouteBook(scenario)
  expect([compiles(), pathsCompiled()]).toEqual([1, scenario.length])
  for (let request = 0; request < 100; request++) {
    expect(book.match('GET', `/unknown/${request}`)).toEqual({ allow: [] })
    expect(book.match('PUT', `/catalog/${'long-segment/'.repeat(40)}${request}`)).toEqual({ allow: ['GET'] })
  }
  for (let index = 0; index < MAX_ROUTES / 2; index++) expect(book.add(recorded(`/recorded/${index}`))).toBe(true)
  // 500 recordings: 500 more paths compiled, no whole table rebuilt.
  expect([compiles(), pathsCompiled()]).toEqual([1, MAX_ROUTES])
  expect(indexOf(book.match('GET', '/recorded/499'))).toBe(MAX_ROUTES - 1)
  book.reset(scenario)
  expect([compiles(), book.list().length]).toEqual([2, scenario.length])
})

test('the book keeps the first route per method and path, and at most 1,000', () => {
  const book = createRouteBook([{ method: 'GET', path: '/items/{id}', status: 200 }])
  // Answered already by the scenario's template: not recorded.
  expect(book.add(recorded('/items/7'))).toBe(false)
  expect(book.add(recorded('/items/7', '{}', 'POST'))).toBe(true)
  expect(book.add(recorded('/items/7', '{"again":1}', 'POST'))).toBe(false)
  expect(book.list().map((route) => `${route.method} ${route.path}`)).toEqual(['GET /items/{id}', 'POST /items/7'])
  const full = createRouteBook(Array.from({ length: MAX_ROUTES }, (_, index) => ({ method: 'GET', path: `/r/${index}`, status: 200 })))
  expect(full.add(recorded('/another'))).toBe(false)
})

test('recorded bytes are charged as held, refused past the bound, and given back by a reset', () => {
  let charged = 0
  const bound = 3 * 1024 * 1024
  const charge = (bytes: number) => {
    if (bytes > 0 && charged + bytes > bound) throw new Error('over the bound')
    charged += bytes
  }
  const book = createRouteBook([], charge)
  const body = `[${Array.from({ length: 200_000 }, () => '{}').join(',')}]`
  const route = recorded('/big/0', body)
  // The body's bytes exactly, plus the route's other fields: nothing like the ~21x a parsed [{},{}] costs.
  expect(heldBytes(route)).toBeGreaterThan(body.length)
  expect(heldBytes(route)).toBeLessThan(body.length + 1024)
  let added = 0
  while (book.add(recorded(`/big/${added}`, body))) added++
  expect(added).toBe(Math.floor(bound / heldBytes(route)))
  expect(charged).toBe(added * heldBytes(route))
  book.reset([])
  expect([charged, book.list().length]).toEqual([0, 0])
})

test("shown, a recorded route has its body's value and no bytes; a scenario's route is a copy", () => {
  const route = recorded('/x', '{"a":[1,2]}')
  expect(shownRoute(route)).toEqual({
    method: 'GET',
    path: '/x',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: { a: [1, 2] },
  })
  const own: Route = { method: 'GET', path: '/y', status: 200, body: 'y' }
  expect(shownRoute(own)).toEqual(own)
  expect(shownRoute(own)).not.toBe(own)
})
