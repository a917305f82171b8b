import { describe, expect, test } from 'vitest'
import { KEY, TRANSPORTS, type CallOptions } from './support/harness.js'

/**
 * Client mistakes of every kind, each row run in process and over HTTP
 * against the pending scenario (orders 1, 2 and 3, all pending). A row gives
 * the exact status and Error code; state must be unchanged unless the row
 * says which order its request cancels.
 */
interface Row {
  name: string
  method: string
  path: string
  options?: CallOptions
  status: number
  /** The Error body's code; null for an answer without an Error body. */
  code: string | null
  /** The order the request cancels, when it succeeds. */
  cancels?: number
  allow?: string
}

const cancel = (id: string, status: number, code: string | null, cancels?: number): Row => ({
  name: `DELETE /store/orders/${id.length > 30 ? `${id.slice(0, 12)}… (${id.length} chars)` : id}`,
  method: 'DELETE',
  path: `/store/orders/${id}`,
  status,
  code,
  ...(cancels === undefined ? {} : { cancels }),
})

const pathIds: Row[] = [
  cancel('abc', 400, 'invalid_order_id'),
  cancel('1.5', 400, 'invalid_order_id'),
  cancel('1e3', 400, 'invalid_order_id'),
  cancel('-1', 404, 'order_not_found'),
  cancel('0', 404, 'order_not_found'),
  cancel('-0', 404, 'order_not_found'),
  cancel('+1', 400, 'invalid_order_id'),
  cancel(' 1', 400, 'invalid_order_id'),
  cancel('0x10', 400, 'invalid_order_id'),
  cancel('%31', 204, null, 1),
  cancel('01', 204, null, 1),
  cancel('9223372036854775807', 404, 'order_not_found'),
  cancel('-9223372036854775808', 404, 'order_not_found'),
  cancel('9223372036854775808', 400, 'invalid_order_id'),
  cancel('-9223372036854775809', 400, 'invalid_order_id'),
  cancel('9007199254740993', 404, 'order_not_found'),
  cancel('9'.repeat(5000), 400, 'invalid_order_id'),
  cancel('١', 400, 'invalid_order_id'),
  cancel('%zz', 400, 'invalid_order_id'),
  { ...cancel('', 405, 'method_not_allowed'), name: 'DELETE /store/orders/ (an empty id segment is the list path)', allow: 'GET' },
]

const list = (name: string, options: CallOptions, status: number): Row => ({
  name: `Authorization: ${name}`,
  method: 'GET',
  path: '/store/orders',
  options,
  status,
  code: status === 200 ? null : 'unauthorized',
})

const authorization: Row[] = [
  list('missing', { key: null }, 401),
  list('empty', { authorization: '' }, 401),
  list('"Bearer"', { authorization: 'Bearer' }, 401),
  list('"Bearer" and spaces', { authorization: 'Bearer     ' }, 401),
  list('"bearer <key>" (the scheme is case-insensitive)', { authorization: `bearer ${KEY}` }, 200),
  list('"BEARER <key>"', { authorization: `BEARER ${KEY}` }, 200),
  list('"Bearer  <key>" (two spaces)', { authorization: `Bearer  ${KEY}` }, 200),
  list('Basic credentials', { authorization: `Basic ${btoa(`user:${KEY}`)}` }, 401),
  list('"Bearer <key> extra"', { authorization: `Bearer ${KEY} extra` }, 401),
  list('the key with a trailing space (HTTP drops it)', { authorization: `Bearer ${KEY} ` }, 200),
  list('a 16 KB token', { authorization: `Bearer ${'a'.repeat(16 * 1024)}` }, 401),
  list('non-ASCII bytes', { authorization: 'Bearer p\u00e9tstore-test-key' }, 401),
  list('two headers, both the key', { headers: [['Authorization', `Bearer ${KEY}`]] }, 401),
]

const methodsAndPaths: Row[] = [
  ...['POST', 'PUT', 'PATCH', 'DELETE'].map(
    (method): Row => ({
      name: `${method} /store/orders`,
      method,
      path: '/store/orders',
      status: 405,
      code: 'method_not_allowed',
      allow: 'GET',
    }),
  ),
  ...['GET', 'POST', 'PUT', 'PATCH'].map(
    (method): Row => ({
      name: `${method} /store/orders/1`,
      method,
      path: '/store/orders/1',
      status: 405,
      code: 'method_not_allowed',
      allow: 'DELETE',
    }),
  ),
  ...['POST', 'PUT', 'PATCH', 'DELETE'].map(
    (method): Row => ({ name: `${method} /pets/1`, method, path: '/pets/1', status: 405, code: 'method_not_allowed', allow: 'GET' }),
  ),
  {
    name: 'HEAD /store/orders (not an operation of the spec)',
    method: 'HEAD',
    path: '/store/orders',
    status: 405,
    code: null,
    allow: 'GET',
  },
  { name: 'OPTIONS /store/orders', method: 'OPTIONS', path: '/store/orders', status: 204, code: null, allow: 'GET, OPTIONS' },
  { name: 'OPTIONS /store/orders/1', method: 'OPTIONS', path: '/store/orders/1', status: 204, code: null, allow: 'DELETE, OPTIONS' },
  { name: 'GET /store/orders/ (trailing slash)', method: 'GET', path: '/store/orders/', status: 200, code: null },
  { name: 'DELETE /store/orders/2/ (trailing slash)', method: 'DELETE', path: '/store/orders/2/', status: 204, code: null, cancels: 2 },
  { name: 'GET /store/orders/1/extra', method: 'GET', path: '/store/orders/1/extra', status: 404, code: 'not_found' },
  { name: 'DELETE /store/orders/1/extra', method: 'DELETE', path: '/store/orders/1/extra', status: 404, code: 'not_found' },
  // An empty segment is a path a server behind could read as another (issue 54): never an operation's.
  { name: 'GET /v1//store/orders', method: 'GET', path: '//store/orders', status: 400, code: 'invalid_path' },
  {
    name: 'GET /V1/store/orders (paths are case-sensitive)',
    method: 'GET',
    path: '/store/orders',
    options: { url: (url) => url.replace('/v1/', '/V1/') },
    status: 404,
    code: 'not_found',
  },
  { name: 'GET /v1/STORE/orders', method: 'GET', path: '/STORE/orders', status: 404, code: 'not_found' },
  {
    name: 'GET /store/orders?limit=1&status=shipped (query ignored)',
    method: 'GET',
    path: '/store/orders?limit=1&status=shipped',
    status: 200,
    code: null,
  },
  {
    name: 'DELETE /store/orders/3?force=true (query ignored)',
    method: 'DELETE',
    path: '/store/orders/3?force=true',
    status: 204,
    code: null,
    cancels: 3,
  },
  {
    name: 'DELETE with a JSON body (ignored)',
    method: 'DELETE',
    path: '/store/orders/2',
    options: { body: '{"reason":"changed my mind"}', headers: [['Content-Type', 'application/json']] },
    status: 204,
    code: null,
    cancels: 2,
  },
  {
    name: 'DELETE with a malformed JSON body (ignored)',
    method: 'DELETE',
    path: '/store/orders/2',
    options: { body: '{"reason":', headers: [['Content-Type', 'application/json']] },
    status: 204,
    code: null,
    cancels: 2,
  },
  {
    name: 'DELETE with a 10 MB body',
    method: 'DELETE',
    path: '/store/orders/1',
    options: { body: 'x'.repeat(10 * 1024 * 1024) },
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'POST /store/orders with a 10 MB body',
    method: 'POST',
    path: '/store/orders',
    options: { body: 'x'.repeat(10 * 1024 * 1024) },
    status: 413,
    code: 'payload_too_large',
  },
]

describe.each(TRANSPORTS)('$name', ({ use }) => {
  const simulate = use()

  describe.each([
    ['path ids', pathIds],
    ['Authorization', authorization],
    ['methods and paths', methodsAndPaths],
  ] as const)('%s', (_, rows) => {
    test.each(rows)('$name → $status', async (row) => {
      const api = simulate({ scenario: 'pending' })
      const before = api.sim.orders()

      const response = await api.request(row.method, row.path, row.options)

      expect(response.status).toBe(row.status)
      if (row.allow !== undefined) expect(response.headers.get('Allow')).toBe(row.allow)
      if (row.code === null) {
        if (row.status === 204 || row.method === 'HEAD') expect(response.text).toBe('')
      } else {
        expect(response.headers.get('Content-Type')).toBe('application/json')
        const body = response.json() as Record<string, unknown>
        expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status'])
        expect(body).toEqual({ code: row.code, message: expect.any(String), status: row.status })
        expect((body['message'] as string).length).toBeLessThan(400)
      }
      const expected = before.map((order) => (order.id === row.cancels ? { ...order, status: 'cancelled' } : order))
      expect(api.sim.orders()).toEqual(expected)
    })
  })
})
