// Routes per query (issue 57, item 3): a route may name the query parameters it answers; the table
// picks the most specific path, then the route naming more parameters, then the first declared.
import { expect, test } from 'vitest'
import { createAjv } from '../../../test/support/ajv.js'
import { scenarioJsonSchema } from '../scenario/scenario-json-schema.js'
import { createRouteBook } from './route-book.js'
import { type Fail, parseRoutes } from './parse-routes.js'
import { queryOf } from './route-path.js'
import { MAX_QUERY_NAMES } from './route-schema.js'
import { createRouteTable, type HeldRoute, type Lookup, OPERATION_TABLE, type Route } from './route-table.js'
import { countQueryParses } from '../../../test/support/query-parses.js'

const fail: Fail = (field, problem) => {
  throw Object.assign(new Error(problem), { field })
}

/** The field and message parseRoutes gives for a route with this query, else "loads". */
function problemOf(query: unknown): { field: string; message: string } | 'loads' {
  try {
    parseRoutes(
      [
        { method: 'GET', path: '/ok', status: 200 },
        { method: 'GET', path: '/search', status: 200, query },
      ],
      fail,
    )
    return 'loads'
  } catch (error) {
    return { field: (error as { field: string }).field, message: (error as Error).message }
  }
}

/** The body of the route a lookup found, else what it found. */
const bodyOf = (lookup: Lookup) => ('route' in lookup ? lookup.route.body : lookup)

const SEARCH: Route[] = [
  { method: 'GET', path: '/search', status: 200, body: 'any' },
  { method: 'GET', path: '/search', status: 200, query: { q: 'cat' }, body: 'cat' },
  { method: 'GET', path: '/search', status: 200, query: { q: 'cat', lang: 'en' }, body: 'cat in English' },
  { method: 'GET', path: '/search', status: 200, query: { q: 'rex' }, body: 'rex' },
  { method: 'GET', path: '/search', status: 200, query: { q: 'rex' }, body: 'rex, declared later' },
  { method: 'GET', path: '/{area}', status: 200, query: { q: 'cat', lang: 'en', page: '2' }, body: 'template' },
]

test('the route naming more matching parameters wins; the first declared between equals; one without query takes the rest', () => {
  const table = createRouteTable(SEARCH)
  expect(bodyOf(table.match('GET', '/search?q=cat'))).toBe('cat')
  expect(bodyOf(table.match('GET', '/search?lang=en&q=cat'))).toBe('cat in English')
  expect(bodyOf(table.match('GET', '/search?q=rex&page=9'))).toBe('rex')
  expect(bodyOf(table.match('GET', '/search?q=dog'))).toBe('any')
  expect(bodyOf(table.match('GET', '/search'))).toBe('any')
  // The path's specificity first: a literal /search beats the template naming three parameters.
  expect(bodyOf(table.match('GET', '/search?q=cat&lang=en&page=2'))).toBe('cat in English')
  expect(bodyOf(table.match('GET', '/other?q=cat&lang=en&page=2'))).toBe('template')
  // Given apart, the query wins over the path's own; segments with no query given read none.
  expect(bodyOf(table.match('GET', '/search?q=dog', 'q=rex'))).toBe('rex')
  expect(bodyOf(table.match('GET', ['search']))).toBe('any')
  expect(bodyOf(table.match('GET', ['search'], 'q=cat'))).toBe('cat')
})

test('values compare decoded, as URLSearchParams reads them; a name sent twice matches either value', () => {
  const table = createRouteTable([
    { method: 'GET', path: '/find', status: 200, query: { q: 'big cat', 'tag[]': 'é' }, body: 'decoded' },
    { method: 'GET', path: '/find', status: 200, query: { q: '' }, body: 'empty' },
  ])
  expect(bodyOf(table.match('GET', '/find?q=big+cat&tag%5B%5D=%C3%A9'))).toBe('decoded')
  expect(bodyOf(table.match('GET', '/find?q=big%20cat&tag[]=é'))).toBe('decoded')
  expect(bodyOf(table.match('GET', '/find?q=small&q=big+cat&tag[]=x&tag[]=%C3%A9'))).toBe('decoded')
  expect(bodyOf(table.match('GET', '/find?q'))).toBe('empty')
  expect(bodyOf(table.match('GET', '/find?q=&x=1'))).toBe('empty')
  // A fragment is no part of the query.
  expect(bodyOf(table.match('GET', '/find?q=#x'))).toBe('empty')
  expect(queryOf('/find#x?q=1')).toBe('')
})

test('{} is any query, as none is; a path whose routes all name another query falls through listing its methods', () => {
  const table = createRouteTable([
    { method: 'GET', path: '/a', status: 200, query: {}, body: 'empty object' },
    { method: 'POST', path: '/b', status: 201, query: { kind: 'x' } },
    { method: 'GET', path: '/b', status: 200, query: { kind: 'y' } },
  ])
  expect(bodyOf(table.match('GET', '/a?anything=1'))).toBe('empty object')
  expect(table.match('GET', '/b?kind=z')).toEqual({ allow: ['GET', 'POST'] })
  expect(table.match('PUT', '/b?kind=x')).toEqual({ allow: ['GET', 'POST'] })
  expect(table.match('POST', '/b?kind=x')).toMatchObject({ route: { status: 201 } })
})

test('spec operations take any query, and a route naming one at their path is still refused', () => {
  expect(createRouteTable(SEARCH).match('GET', '/store/orders?q=cat')).toMatchObject({ operation: { id: 'listOrders' } })
  expect(problemOf({ q: 'x' })).toBe('loads')
  expect(() => parseRoutes([{ method: 'GET', path: '/store/orders', status: 200, query: { status: 'pending' } }], fail)).toThrow(
    "routes[0] would replace the spec's operation listOrders",
  )
})

test('no query is parsed for an operation, nor by a table without query routes, nor for a route that names none', () => {
  const parsed = countQueryParses()
  const plain = createRouteTable([{ method: 'GET', path: '/inventory', status: 200 }])
  for (let request = 0; request < 100; request++) {
    OPERATION_TABLE.match('GET', ['store', 'orders'], 'q=cat&page=2')
    plain.match('GET', ['inventory'], 'q=cat')
    plain.match('GET', ['elsewhere'], 'q=cat')
    createRouteTable(SEARCH).match('GET', ['store', 'orders'], 'q=cat')
  }
  expect(parsed).not.toHaveBeenCalled()
  createRouteTable(SEARCH).match('GET', '/search?q=cat&lang=en')
  // Once per request, however many routes are tried.
  expect(parsed).toHaveBeenCalledTimes(1)
})

test('a book keeps the first answer per method, path and query', () => {
  const book = createRouteBook([{ method: 'GET', path: '/items/{id}', status: 200 }])
  const recorded = (path: string, query?: Record<string, string>): HeldRoute => ({
    method: 'GET',
    path,
    status: 200,
    ...(query === undefined ? {} : { query }),
  })
  // The template answers /items/7 with any query: the same answer, not recorded.
  expect(book.add(recorded('/items/7'))).toBe(false)
  expect(book.add(recorded('/items/7', {}))).toBe(false)
  expect(book.add(recorded('/items/7', { q: 'cat' }))).toBe(true)
  expect(book.add(recorded('/items/7', { q: 'cat' }))).toBe(false)
  expect(book.add(recorded('/items/7', { q: 'rex' }))).toBe(true)
  expect(book.add(recorded('/items/7', { q: 'cat', page: '2' }))).toBe(true)
  expect(book.add(recorded('/items/7', { page: '2', q: 'cat' }))).toBe(false)
  expect(book.add(recorded('/items/7', { q: 'a b&c=d' }))).toBe(true)
  expect(book.add(recorded('/items/7', { q: 'a b&c=d' }))).toBe(false)
  expect(book.list().map(({ query }) => query)).toEqual([undefined, { q: 'cat' }, { q: 'rex' }, { q: 'cat', page: '2' }, { q: 'a b&c=d' }])
  expect(bodyOf(book.match('GET', '/items/7?q=a+b%26c%3Dd'))).toBeUndefined()
  expect(book.match('GET', '/items/7?q=a+b%26c%3Dd')).toMatchObject({ index: 4 })
})

test('a query is an object of up to 32 names to strings, each named in one line when refused', () => {
  expect(problemOf({})).toBe('loads')
  expect(problemOf({ q: '', 'tag[]': 'é 🐈', 'a b': 'x'.repeat(2048) })).toBe('loads')
  expect(problemOf('q=cat')).toEqual({
    field: 'routes[1].query',
    message: 'routes[1].query must be an object of query parameter names to strings, got the string "q=cat"',
  })
  expect(problemOf(['q'])).toMatchObject({ field: 'routes[1].query' })
  expect(problemOf({ q: 5 })).toEqual({ field: 'routes[1].query.q', message: 'routes[1].query.q must be a string, got 5' })
  expect(problemOf({ q: null })).toMatchObject({ field: 'routes[1].query.q' })
  expect(problemOf({ q: ['a'] })).toMatchObject({ message: 'routes[1].query.q must be a string, got an array' })
  const many = Object.fromEntries(Array.from({ length: MAX_QUERY_NAMES + 1 }, (_, index) => [`p${index}`, 'v']))
  expect(problemOf(many)).toEqual({
    field: 'routes[1].query',
    message: 'routes[1].query names 33 parameters; a route may name at most 32',
  })
})

test('scenario.schema.json refuses and accepts the queries the loader does', () => {
  const validate = createAjv({ strict: true }).compile(scenarioJsonSchema())
  const many = Object.fromEntries(Array.from({ length: MAX_QUERY_NAMES + 1 }, (_, index) => [`p${index}`, 'v']))
  const cases: unknown[] = [
    {},
    { q: 'cat', 'tag[]': 'é 🐈', '': 'x' },
    { q: 'x'.repeat(2048), ['n'.repeat(256)]: '' },
    { q: '🐈'.repeat(2048) },
    { q: 'x'.repeat(2049) },
    { ['n'.repeat(257)]: 'x' },
    { q: 'a\nb' },
    { q: 'a\u0085b' },
    { 'a\u007fb': 'x' },
    { q: 1 },
    JSON.parse('{"__proto__": "x"}'),
    many,
    'q=cat',
  ]
  const loads = cases.map((query) => problemOf(query) === 'loads')
  for (const [index, query] of cases.entries()) {
    const scenario = { name: 'query', routes: [{ method: 'GET', path: '/search', status: 200, query }] }
    expect(validate(scenario), JSON.stringify(query).slice(0, 80)).toBe(loads[index])
  }
  expect(loads).toEqual([true, false, true, true, false, false, false, false, false, false, false, false, false])
})
