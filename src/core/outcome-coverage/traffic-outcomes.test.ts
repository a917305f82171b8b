import { expect, test } from 'vitest'
import openApi from '../../contract/openapi.json' with { type: 'json' }
import { createSimulator } from '../../node.js'
import { describeTraffic, summarizeTraffic, type TrafficAnswer } from './traffic-outcomes.js'

const JSON_TYPE = { 'Content-Type': 'application/json' }
const UNAUTHORIZED = '{"code":"unauthorized","message":"Missing API key.","status":401}'
const PET_HEADERS = { ...JSON_TYPE, Deprecation: '@1767225600', Sunset: 'Fri, 01 Jan 2027 00:00:00 GMT' }
const HINT =
  'To see which switch of the simulator makes it answer as the deployment does, run: petstore-sim verify --target <url> (docs/verify.md).'

/** An answer with the simulator's own headers and bodies unless said otherwise. */
function answer(method: string, path: string, status: number, body?: string, headers: TrafficAnswer['headers'] = JSON_TYPE): TrafficAnswer {
  return { method, path, status, headers, body }
}
const shipped = (code = 'order_already_shipped', headers: TrafficAnswer['headers'] = JSON_TYPE) =>
  answer('DELETE', '/store/orders/3', 409, JSON.stringify({ code, message: 'Order 3 has shipped.', status: 409 }), headers)

test('the simulator answering each documented outcome shows each, with no difference', async () => {
  const sim = createSimulator({ scenario: 'default' })
  const API = 'https://api.petstore.example/v1'
  const auth = { Authorization: 'Bearer petstore-test-key' }
  const requests: [string, string, Record<string, string>][] = [
    ['GET', '/store/orders', auth],
    ['GET', '/store/orders', {}],
    ['DELETE', '/store/orders/1', auth],
    ['DELETE', '/store/orders/abc', auth],
    ['DELETE', '/store/orders/1', {}],
    ['DELETE', '/store/orders/999999', auth],
    ['DELETE', '/store/orders/5', auth],
    ['DELETE', '/store/orders/1', auth],
    ['GET', '/pets/1', auth],
    ['GET', '/pets/1', {}],
    ['GET', '/pets/nope', auth],
  ]
  const answers: TrafficAnswer[] = []
  for (const [method, path, headers] of requests) {
    const response = await sim.fetch(`${API}${path}`, { method, headers })
    const body = await response.text()
    answers.push({ method, path, status: response.status, headers: [...response.headers], body: body === '' ? undefined : body })
  }
  // Order 5 of the default scenario is shipped, order 1 cancelled above: each 409 with its own code. Then an empty list.
  await sim.reset('missing')
  const empty = await sim.fetch(`${API}/store/orders`, { headers: auth })
  expect(empty.status).toBe(200)
  answers.push({ method: 'GET', path: '/store/orders', status: 200, headers: [...empty.headers], body: await empty.text() })
  const summary = summarizeTraffic(answers)
  expect(summary.differences).toEqual([])
  const ids = summary.outcomes.map(({ id }) => id)
  expect(ids).toContain('listOrders.200.empty')
  expect(ids).toContain('getPetById.404.pet_not_found')
  expect(summary.outcomes.every(({ count }) => count >= 1)).toBe(true)
  expect(ids).toHaveLength(12)
})

test('outcomes are named as coverage names them, in the document order, with counts', () => {
  const summary = summarizeTraffic([
    shipped(),
    answer('DELETE', '/store/orders/1', 204, undefined, {}),
    shipped(),
    answer('GET', '/store/orders', 200, '[{"id":1}]'),
    answer('GET', '/store/orders', 200, ' [ ] '),
  ])
  expect(summary.outcomes).toEqual([
    { id: 'listOrders.200', count: 1 },
    { id: 'listOrders.200.empty', count: 1 },
    { id: 'cancelOrder.204', count: 1 },
    { id: 'cancelOrder.409.order_already_shipped', count: 2 },
  ])
  expect(summary.beyond).toBe(0)
  expect(describeTraffic(summary)).toEqual([
    'The traffic showed 4 of the 12 documented outcomes: listOrders.200 (1), listOrders.200.empty (1), cancelOrder.204 (1), cancelOrder.409.order_already_shipped (2); no answer beyond the spec.',
  ])
})

test('answers no operation takes are beyond the spec: routes, other methods, the base itself', () => {
  const summary = summarizeTraffic([
    answer('GET', '/v1/version', 200, '1.2.3', { 'content-type': 'text/plain' }),
    answer('HEAD', '/store/orders', 200),
    answer('POST', '/store/orders', 201, '{}'),
    answer('GET', '', 200, '{}'),
    answer('GET', '/', 200, '{}'),
  ])
  expect(summary).toEqual({ outcomes: [], beyond: 5, differences: [] })
  expect(describeTraffic(summary)).toEqual(['The traffic showed none of the 12 documented outcomes; 5 answers beyond the spec.'])
  expect(describeTraffic(summarizeTraffic([answer('GET', '/search', 200, '{}')]))[0]).toBe(
    'The traffic showed none of the 12 documented outcomes; 1 answer beyond the spec.',
  )
})

test('a query, a trailing slash and the method in lower case still name the operation', () => {
  const summary = summarizeTraffic([
    answer('get', '/store/orders?limit=1&offset=2', 200, '[{"id":1}]'),
    answer('GET', '/store/orders/?x=1#frag', 200, '[]'),
    answer('delete', '/store/orders/5?force=true', 204, undefined, {}),
  ])
  expect(summary.outcomes).toEqual([
    { id: 'listOrders.200', count: 1 },
    { id: 'listOrders.200.empty', count: 1 },
    { id: 'cancelOrder.204', count: 1 },
  ])
})

test('header names in any case, as a record or as pairs', () => {
  const pairs: TrafficAnswer['headers'] = [
    ['CONTENT-TYPE', 'application/json; charset=utf-8'],
    ['www-AUTHENTICATE', 'bearer realm="api", error="invalid_token"'],
  ]
  const summary = summarizeTraffic([
    answer('GET', '/store/orders', 401, UNAUTHORIZED, pairs),
    answer('GET', '/pets/7', 200, '{"id":7}', {
      'cOnTeNt-TyPe': 'application/problem+json',
      DEPRECATION: '@1767225600',
      sunset: 'Fri, 01 Jan 2027 00:00:00 GMT',
    }),
  ])
  expect(summary.differences).toEqual([])
  expect(summary.outcomes).toEqual([
    { id: 'listOrders.401.unauthorized', count: 1 },
    { id: 'getPetById.200', count: 1 },
  ])
})

test('a status that is no HTTP status (a HAR entry that got no answer) is no answer', () => {
  const summary = summarizeTraffic([
    answer('GET', '/store/orders', 0),
    answer('GET', '/store/orders', Number.NaN),
    answer('GET', '/x', 1000),
  ])
  expect(summary).toEqual({ outcomes: [], beyond: 0, differences: [] })
})

test('a code the simulator does not send names the status and the codes it does', () => {
  const summary = summarizeTraffic([shipped('already_shipped'), shipped('already_shipped'), shipped('nope')])
  expect(summary.outcomes).toEqual([])
  expect(summary.differences).toEqual([
    'cancelOrder.409: the deployment\'s code is "already_shipped"; the simulator answers order_already_shipped or order_not_pending',
  ])
  expect(describeTraffic(summary)).toEqual([
    'The traffic showed none of the 12 documented outcomes; no answer beyond the spec.',
    'cancelOrder.409: the deployment\'s code is "already_shipped"; the simulator answers order_already_shipped or order_not_pending',
    HINT,
  ])
  expect(
    summarizeTraffic([
      answer('GET', '/store/orders', 401, '{"code":"invalid_token","message":"m","status":401}', {
        ...JSON_TYPE,
        'WWW-Authenticate': 'Bearer',
      }),
    ]).differences,
  ).toEqual(['listOrders.401: the deployment\'s code is "invalid_token"; the simulator answers unauthorized'])
})

test('a status the service does not document', () => {
  const summary = summarizeTraffic([
    answer('DELETE', '/store/orders/1', 500, '<h1>oops</h1>', { 'content-type': 'text/html' }),
    answer('DELETE', '/store/orders/2', 500, '{}'),
    answer('GET', '/store/orders', 302, undefined, { Location: 'https://login.example/' }),
  ])
  expect(summary.differences).toEqual([
    'cancelOrder.500: the deployment answered 500, which the service does not document',
    'listOrders.302: the deployment answered 302, which the service does not document',
  ])
  expect(summary.outcomes).toEqual([])
  expect(summary.beyond).toBe(0)
})

test("an Error body without the spec's required fields, or with them of another kind", () => {
  const bearer = { ...JSON_TYPE, 'WWW-Authenticate': 'Bearer' }
  const summary = summarizeTraffic([
    answer('GET', '/store/orders', 401, '{"code":"unauthorized","status":401}', bearer),
    answer('DELETE', '/store/orders/9', 404, '{"code":"order_not_found","message":["a"]}'),
    answer('DELETE', '/store/orders/x', 400, '{"code":"invalid_order_id","message":"m","status":"400"}'),
    answer('DELETE', '/store/orders/3', 409, '{"message":"m","status":409}'),
    answer('GET', '/pets/1', 404, '{"code":404,"message":"m","status":404}', PET_HEADERS),
    answer('DELETE', '/store/orders/4', 409, '{"code":"order_not_pending","message":"m","status":400}'),
  ])
  expect(summary.differences).toEqual([
    'listOrders.401.unauthorized: the deployment\'s Error body has no "message"',
    'cancelOrder.404.order_not_found: the deployment\'s Error "message" is an array, not a string',
    'cancelOrder.404.order_not_found: the deployment\'s Error body has no "status"',
    'cancelOrder.400.invalid_order_id: the deployment\'s Error "status" is a string; the simulator sends the answer\'s status, 400',
    'cancelOrder.409: the deployment\'s Error body has no "code"',
    'getPetById.404: the deployment\'s Error "code" is a number, not a string',
    'cancelOrder.409.order_not_pending: the deployment\'s Error "status" is 400; the simulator sends the answer\'s status, 409',
  ])
  // An outcome whose code is documented is shown, whatever else its body lacks.
  expect(summary.outcomes.map(({ id }) => id)).toEqual([
    'listOrders.401.unauthorized',
    'cancelOrder.400.invalid_order_id',
    'cancelOrder.404.order_not_found',
    'cancelOrder.409.order_not_pending',
  ])
})

test('a body that is not JSON, none, or not the shape the simulator sends', () => {
  const summary = summarizeTraffic([
    answer('GET', '/store/orders', 200, '<html>', { 'content-type': 'text/html; charset=utf-8' }),
    answer('GET', '/store/orders', 200, '{"items":[]}'),
    answer('DELETE', '/store/orders/3', 409, undefined),
    answer('DELETE', '/store/orders/7', 404, 'Not Found'),
    answer('GET', '/store/orders', 401, '[]', { ...JSON_TYPE, 'WWW-Authenticate': 'Bearer' }),
    answer('GET', '/pets/1', 200, '', PET_HEADERS),
  ])
  expect(summary.differences).toEqual([
    'listOrders.200: the body is not JSON',
    'listOrders.200: the deployment\'s Content-Type is "text/html"; the simulator sends application/json',
    'cancelOrder.409: the deployment sent no body; the simulator sends an Error object',
    'cancelOrder.404: the body is not JSON',
    "listOrders.401: the deployment's body is an array, not an Error object",
    'getPetById.200: the deployment sent no body; the simulator sends JSON',
  ])
  // Repeated for each outcome and field once: the second 200's object body is the same (outcome, body) as the first's.
  expect(summary.outcomes).toEqual([
    { id: 'listOrders.200', count: 2 },
    { id: 'getPetById.200', count: 1 },
  ])
})

test('the headers the simulator sends: Content-Type, WWW-Authenticate on a 401, Deprecation and Sunset on the pets call', () => {
  const summary = summarizeTraffic([
    answer('GET', '/store/orders', 200, '[1]', {}),
    answer('GET', '/store/orders', 401, UNAUTHORIZED),
    answer('DELETE', '/store/orders/1', 401, UNAUTHORIZED, { ...JSON_TYPE, 'WWW-Authenticate': 'Basic realm="x"' }),
    answer('GET', '/pets/1', 200, '{}', JSON_TYPE),
    answer('GET', '/pets/2', 404, '{"code":"pet_not_found","message":"m","status":404}', {
      ...JSON_TYPE,
      Deprecation: 'true',
      Sunset: 'Sat, 01 Jan 2028 00:00:00 GMT',
    }),
    // The same date spelled otherwise is the same date to a client.
    answer('GET', '/pets/3', 404, '{"code":"pet_not_found","message":"m","status":404}', {
      ...PET_HEADERS,
      Sunset: 'Fri, 1 Jan 2027 00:00:00 GMT',
    }),
  ])
  expect(summary.differences).toEqual([
    'listOrders.200: the deployment sends no Content-Type; the simulator sends application/json',
    'listOrders.401.unauthorized: the deployment sends no WWW-Authenticate; the simulator sends Bearer',
    'cancelOrder.401.unauthorized: the deployment\'s WWW-Authenticate scheme is "Basic"; the simulator sends Bearer',
    'getPetById.200: the deployment sends no Deprecation; the simulator sends @1767225600 unless its deprecation dates are set',
    'getPetById.200: the deployment sends no Sunset; the simulator sends Fri, 01 Jan 2027 00:00:00 GMT unless its deprecation dates are set',
    'getPetById.404.pet_not_found: the deployment\'s Deprecation is "true"; the simulator sends @1767225600 unless its deprecation dates are set',
    'getPetById.404.pet_not_found: the deployment\'s Sunset is "Sat, 01 Jan 2028 00:00:00 GMT"; the simulator sends Fri, 01 Jan 2027 00:00:00 GMT unless its deprecation dates are set',
  ])
})

test('the headers compared are those the OpenAPI document names for each response', () => {
  type Documented = { responses: Record<string, { $ref?: string; headers?: Record<string, unknown>; content?: unknown }> }
  const document = openApi as unknown as {
    paths: Record<string, Record<string, Documented>>
    components: { responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }> }
  }
  const codes: Record<string, string> = { '400': 'invalid_order_id', '401': 'unauthorized', '404': 'x', '409': 'order_not_pending' }
  let checked = 0
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      for (const [status, written] of Object.entries(operation.responses)) {
        if (!/^\d{3}$/.test(status)) continue
        const response = written.$ref === undefined ? written : document.components.responses[written.$ref.split('/').at(-1) as string]
        const path = template.replace(/\{[^}]+\}/, '1')
        const code = codes[status] ?? ''
        const body = status.startsWith('2') ? '[1]' : JSON.stringify({ code, message: 'm', status: Number(status) })
        // With none of its headers, the answer's lines name each header the document names for it, and Content-Type where it has a body.
        const named = summarizeTraffic([answer(method.toUpperCase(), path, Number(status), body, {})])
          .differences.map((line) => /sends no ([\w-]+)/.exec(line)?.[1])
          .filter((name) => name !== undefined)
        const expected = [...(response?.content === undefined ? [] : ['Content-Type']), ...Object.keys(response?.headers ?? {})]
        expect(named.sort(), `${method} ${template} ${status}`).toEqual(expected.sort())
        checked++
      }
    }
  }
  expect(checked).toBe(10)
})

test('control characters and a huge code are escaped and cut to 80 characters', () => {
  const code = `\u001b[2J\u001b]0;pwned\u0007\r\n\u202etxt.exe\u0000${'x'.repeat(100_000)}`
  const [line] = summarizeTraffic([shipped(code)]).differences
  expect(line).toBe(
    `cancelOrder.409: the deployment's code is "\\x1b[2J\\x1b]0;pwned\\x07\\x0d\\x0a\\u202etxt.exe\\x00${'x'.repeat(55)}"… (${code.length} characters); the simulator answers order_already_shipped or order_not_pending`,
  )
  expect(/[\p{Cc}\u202e]/u.test(line as string)).toBe(false)
  const quoted = summarizeTraffic([shipped('say "hi" \\ \ud800')]).differences[0]
  expect(quoted).toContain('"say \\"hi\\" \\\\ \\ud800"')
})

test("no credential is printed: not the deployment's Authorization or cookies, nor a code or scheme that looks like one", () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'
  const summary = summarizeTraffic([
    shipped(jwt, { ...JSON_TYPE, Authorization: 'Bearer sk_live_1234567890abcdefXYZ', 'Set-Cookie': 'sid=s3cr3tS3ssion' }),
    answer('GET', '/store/orders', 401, '{"code":"Bearer abc","message":"m","status":401}', {
      ...JSON_TYPE,
      Cookie: 'sid=s3cr3tS3ssion',
      'WWW-Authenticate': 'AKIAIOSFODNN7EXAMPLEkey12345',
    }),
    answer('GET', '/pets/1', 200, '{}', { ...PET_HEADERS, Sunset: 'token ghp_16C7e42F292c6912E7710c838347Ae178B4a' }),
  ])
  const text = describeTraffic(summary).join('\n')
  for (const secret of [jwt, 'sk_live', 's3cr3t', 'AKIA', 'ghp_', 'Bearer abc']) expect(text).not.toContain(secret)
  expect(text).toContain('(a value that looks like a credential, not shown)')
})

test('a 10 MiB body is read by its status alone', () => {
  const huge = `[${'{"id":1},'.repeat(1_200_000)}{"id":2}]`
  expect(huge.length).toBeGreaterThan(10 * 1024 * 1024)
  const summary = summarizeTraffic([
    answer('GET', '/store/orders', 200, huge),
    answer('GET', '/store/orders', 200, `${huge}not json`),
    answer('GET', '/store/orders', 401, huge, { ...JSON_TYPE, 'WWW-Authenticate': 'Bearer' }),
  ])
  expect(summary).toEqual({ outcomes: [{ id: 'listOrders.200', count: 2 }], beyond: 0, differences: [] })
})

test('10,000 answers: counts add up, at most 20 difference lines and one that counts the rest', () => {
  const answers: TrafficAnswer[] = []
  for (let index = 0; index < 10_000; index++) {
    if (index % 4 === 0) answers.push(answer('GET', `/store/orders?page=${index}`, 200, '[{"id":1}]'))
    else if (index % 4 === 1) answers.push(answer('GET', `/route/${index}`, 200, '{}'))
    else if (index % 4 === 2) answers.push(shipped(`code-${index}`))
    else answers.push(answer('DELETE', `/store/orders/${index}`, 500 + (Math.floor(index / 4) % 100), '{}'))
  }
  const summary = summarizeTraffic(answers)
  expect(summary.outcomes).toEqual([{ id: 'listOrders.200', count: 2500 }])
  expect(summary.beyond).toBe(2500)
  expect(summary.differences).toHaveLength(21)
  expect(summary.differences[0]).toBe(
    'cancelOrder.409: the deployment\'s code is "code-2"; the simulator answers order_already_shipped or order_not_pending',
  )
  // The 409s' one code line, and one line for each of the 100 statuses from 500 to 599.
  expect(summary.differences.at(-1)).toBe('and 81 more differences')
  expect(describeTraffic(summary)).toHaveLength(23)
})

test('a single difference past the bound is counted as one', () => {
  const answers = Array.from({ length: 21 }, (_, index) => answer('DELETE', '/store/orders/1', 500 + index, '{}'))
  expect(summarizeTraffic(answers).differences.at(-1)).toBe('and 1 more difference')
})
