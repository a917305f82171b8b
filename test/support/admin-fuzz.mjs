// The admin fuzz, shared by test/admin-fuzz.test.ts (a property with replayable seeds) and
// npm run soak (the same calls, for a fixed time, against the built server). The routes and
// the words bodies are made of come from the admin OpenAPI document the server serves, so a
// new admin route is fuzzed without editing this file.
import fc from 'fast-check'

export const KEY = 'petstore-test-key'
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** The integers that break parsers: around 2^31, 2^53 and 2^63, and beyond. */
const NUMBER_EDGES = [
  '0',
  '1',
  '-1',
  '0.5',
  '-0',
  '1e400',
  '2147483648',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '123456789012345678901234567890123456789',
]

/** Every admin operation of the document: method, path template, operationId and parameter names. */
export function adminRoutes(document) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method.toLowerCase()] !== undefined).map((method) => {
      const operation = item[method.toLowerCase()]
      return { method, path, operationId: operation.operationId, hasBody: operation.requestBody !== undefined }
    }),
  )
}

/** The property names, enum values and examples of the document's schemas: what a body is made of. */
export function vocabulary(document) {
  const keys = new Set()
  const words = new Set()
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (node === null || typeof node !== 'object') return
    for (const key of Object.keys(node.properties ?? {})) keys.add(key)
    for (const value of [...(node.enum ?? []), ...(node.examples ?? []), node.example, node.default, node.const]) {
      if (value !== undefined && typeof value !== 'object') words.add(JSON.stringify(value))
    }
    Object.values(node).forEach(walk)
  }
  walk(document.components ?? {})
  walk(document.paths)
  return { keys: [...keys], words: [...words] }
}

/** A JSON text, or something that is almost one: what a client can send as a body. */
function bodies(words, keys) {
  const text = fc.string({ maxLength: 24 }).map((value) => JSON.stringify(value))
  const scalar = fc.oneof(
    fc.constantFrom(...NUMBER_EDGES, 'true', 'false', 'null'),
    fc.constantFrom(...words),
    text,
    fc.constant(JSON.stringify('x'.repeat(5000))),
  )
  const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, fc.string({ maxLength: 12 }))
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, scalar, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    object: fc
      .uniqueArray(fc.tuple(key, tie('value')), { maxLength: 5, selector: ([name]) => name })
      .map((members) => `{${members.map(([name, item]) => `${JSON.stringify(name)}:${item}`).join(',')}}`),
  }))
  const deep = fc
    .tuple(fc.integer({ min: 20, max: 10_000 }), fc.boolean())
    .map(([depth, arrays]) => (arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`))
  const truncated = fc.tuple(value, fc.nat()).map(([whole, cut]) => whole.slice(0, cut % Math.max(whole.length, 1)))
  return fc.oneof(
    { weight: 6, arbitrary: value },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: truncated },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )
}

/** Header text fetch accepts: printable ASCII, sometimes very long. */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 40 }),
  fc.constant('s'.repeat(200)),
)

/** A path parameter: an id at an edge, a small number, or any text. */
const pathParam = fc.oneof(fc.constantFrom(...NUMBER_EDGES, '1', '2', '3', '5'), fc.string({ maxLength: 30 }))

/**
 * One call: to the admin API (a route of the document) or to the order API, under some session:
 * none, one of `sessions`, or an id of any text.
 */
export function calls(document, sessions = ['qa-1', 'qa-2', 'run.7']) {
  const routes = adminRoutes(document)
  const { keys, words } = vocabulary(document)
  const body = bodies(words, keys)
  const session = fc.oneof(fc.constant(undefined), fc.constantFrom(...sessions), headerValue)
  const query = fc.oneof(
    fc.constant(''),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })), fc.oneof(fc.constantFrom(...words), pathParam)), {
        maxLength: 3,
      })
      .map((pairs) => `?${new URLSearchParams(pairs.map(([name, value]) => [name, value.replace(/^"|"$/g, '')])).toString()}`),
  )
  const admin = fc
    .record({
      route: fc.constantFrom(...routes),
      // Mostly the route's own method; sometimes another, for the 405.
      otherMethod: fc.option(fc.constantFrom(...METHODS), { freq: 5 }),
      param: pathParam,
      query,
      body,
      session,
    })
    .map(({ route, otherMethod, param, query: search, body: text, session: id }) => ({
      kind: 'admin',
      // Another method may still be an operation of the same path.
      operationId: routes.find((other) => other.path === route.path && other.method === (otherMethod ?? route.method))?.operationId,
      method: otherMethod ?? route.method,
      path: `${route.path.replace(/\{[^}]+\}/g, encodeURIComponent(param))}${search}`,
      param,
      query: search,
      body: text,
      session: id,
    }))
  const api = fc
    .record({
      method: fc.constantFrom(...METHODS),
      path: fc.oneof(
        fc.constant('/v1/store/orders'),
        pathParam.map((id) => `/v1/store/orders/${encodeURIComponent(id)}`),
        pathParam.map((id) => `/v1/pets/${encodeURIComponent(id)}`),
        fc.constant('/v1/nowhere'),
      ),
      authorization: fc.oneof(
        fc.constant(`Bearer ${KEY}`),
        fc.constant(undefined),
        headerValue.map((text) => `Bearer ${text}`),
      ),
      body,
      session,
    })
    .map((call) => ({ kind: 'api', ...call }))
  return fc.oneof({ weight: 4, arbitrary: admin }, { weight: 1, arbitrary: api })
}

/** Sends one call; resolves with its status and body, or with the error fetch met (a network fault, a timeout). */
export async function send(origin, call, timeoutMs = 2000) {
  const headers = {}
  if (call.session !== undefined) headers['X-Sim-Session'] = call.session
  if (call.authorization !== undefined) headers.Authorization = call.authorization
  const init = { method: call.method, headers, signal: AbortSignal.timeout(timeoutMs) }
  if (call.body !== undefined && call.method !== 'GET') init.body = call.body
  try {
    const response = await fetch(`${origin}${call.path}`, init)
    // The event stream never ends: its status is the answer.
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      await response.body?.cancel()
      return { status: response.status, text: '' }
    }
    return { status: response.status, text: await response.text() }
  } catch (error) {
    return { status: 0, text: '', error }
  }
}

/** What a session holds that a call could change: its state, faults, latency and rate limit, as JSON text. */
export async function snapshot(origin, session) {
  const headers = session === undefined ? {} : { 'X-Sim-Session': session }
  const parts = await Promise.all(
    ['state', 'faults', 'latency', 'rate-limit'].map(async (name) => {
      const response = await fetch(`${origin}/__sim/${name}`, { headers })
      return `${response.status} ${await response.text()}`
    }),
  )
  return { text: parts.join('\n'), misbehaves: !/^200 \[\]$/.test(parts[1] ?? '') || !/^200 null$/.test(parts[2] ?? '') }
}
