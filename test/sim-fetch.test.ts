import { expect, test, vi } from 'vitest'
import { createSimulator, type SimulatorOptions } from '../src/index.js'
import '../src/vitest.js'
import { testTime } from './support/test-time.js'

// What sim.fetch does as a fetch (input, signal, errors, streams, the URL it answers); what it answers is
// in the behaviour suites, which run through it as one of their transports (test/support/harness.ts).

const API = 'https://api.petstore.example/v1'
const auth = { Authorization: 'Bearer petstore-test-key' }
const LIST = `${API}/store/orders`

function simulator(options: SimulatorOptions = { scenario: 'pending' }) {
  return createSimulator(options)
}

/** How a promise settles before the next turn of the event loop: its value, its rejection, or still pending. */
function settledNow<T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown } | 'pending'> {
  return Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    new Promise<'pending'>((resolve) => setImmediate(resolve, 'pending')),
  ])
}

/** How a promise settles within `ms`: its value, its rejection, or still pending. */
async function within<T>(ms: number, promise: Promise<T>): Promise<{ value: T } | { error: unknown } | 'pending'> {
  const timer = new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))
  return Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    timer,
  ])
}

test('a string, a URL and a Request are the same request, and the function works unbound', async () => {
  const sim = simulator()
  const { fetch: unbound } = sim
  const answers = await Promise.all([
    unbound(LIST, { headers: auth }),
    unbound(new URL(LIST), { headers: auth }),
    unbound(new Request(LIST, { headers: auth })),
    // init wins over a Request's own, as in fetch.
    unbound(new Request(LIST), { headers: auth }),
  ])
  const bodies = await Promise.all(answers.map((response) => response.text()))
  expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200])
  expect(new Set(bodies).size).toBe(1)
  expect(JSON.parse(bodies[0] as string)).toHaveLength(3)
  expect(sim.requests({ operation: 'listOrders' })).toHaveLength(4)
})

test('the response has its url (no fragment), status, statusText and headers, as over HTTP', async () => {
  const sim = simulator()
  const list = await sim.fetch(`${LIST}?x=1#top`, { headers: auth })
  expect(list.url).toBe(`${LIST}?x=1`)
  expect([list.status, list.statusText, list.ok]).toEqual([200, 'OK', true])
  const body = new Uint8Array(await list.arrayBuffer())
  expect(list.headers.get('Content-Type')).toBe('application/json')
  expect(list.headers.get('Content-Length')).toBe(String(body.byteLength))

  const cancelled = await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: auth })
  expect([cancelled.status, cancelled.statusText, cancelled.body, cancelled.headers.get('Content-Length')]).toEqual([
    204,
    'No Content',
    null,
    null,
  ])
  const again = await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: auth })
  expect([again.status, again.statusText]).toEqual([409, 'Conflict'])
  expect(await again.json()).toMatchObject({ code: 'order_not_pending', status: 409 })
})

test('a relative URL rejects with the TypeError of Node’s fetch, and nothing is recorded', async () => {
  const sim = simulator()
  const fromNode = await fetch('/v1/store/orders').catch((error: unknown) => error)
  const fromSim = await sim.fetch('/v1/store/orders').catch((error: unknown) => error)
  expect(fromSim).toBeInstanceOf(TypeError)
  expect((fromSim as Error).message).toBe((fromNode as Error).message)
  expect((fromSim as Error).message).toBe('Failed to parse URL from /v1/store/orders')
  expect(sim.journal.entries()).toEqual([])
})

test('a URL outside the simulated API rejects with a TypeError naming it and the option that lets it through', async () => {
  const sim = simulator()
  const error = await sim.fetch('https://cdn.example.com/logo.png').catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(TypeError)
  expect((error as Error).message).toBe(
    'petstore-orders-simulator: sim.fetch has no answer for GET https://cdn.example.com/logo.png: it is not the simulated API (/v1 on any origin). ' +
      'To send such requests on, give the simulator a fetch for them: createSimulator({ fallbackFetch: fetch }).',
  )
  const pinned = createSimulator({ baseUrl: 'https://api.petstore.example/v1' })
  await expect(pinned.fetch('https://staging.petstore.example/v1/store/orders')).rejects.toThrow(
    'it is not the simulated API (https://api.petstore.example/v1)',
  )
  expect(sim.journal.entries()).toEqual([])
})

test('fallbackFetch takes what is not the API (fallthrough included), with the request as sent', async () => {
  const seen: string[] = []
  const fallbackFetch = vi.fn(async (input: string | URL | Request) => {
    const request = input as Request
    seen.push(`${request.method} ${request.url} ${request.headers.get('X-Trace')} ${await request.text()}`)
    return new Response('elsewhere', { status: 202 })
  })
  const sim = createSimulator({ fallbackFetch, fallthrough: true })
  const outside = await sim.fetch('https://cdn.example.com/a', { method: 'POST', headers: { 'X-Trace': '7' }, body: 'hi' })
  expect([outside.status, await outside.text()]).toEqual([202, 'elsewhere'])
  // Under the base but no operation: with fallthrough, not the simulator's to answer.
  expect((await sim.fetch(`${API}/store/nothing`)).status).toBe(202)
  expect((await sim.fetch(LIST, { headers: auth })).status).toBe(200)
  expect(seen).toEqual(['POST https://cdn.example.com/a 7 hi', `GET ${API}/store/nothing null `])
  expect(sim.journal.entries().map((entry) => entry.path)).toEqual(['/v1/store/orders'])
  expect(() => createSimulator({ fallbackFetch: 'fetch' as unknown as typeof fetch })).toThrow(
    'Failed to create the simulator: fallbackFetch must be a function, got string.',
  )
})

test('an aborted signal rejects with its reason before anything is recorded or changed', async () => {
  const sim = simulator()
  const reason = new Error('gave up')
  await expect(sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: auth, signal: AbortSignal.abort(reason) })).rejects.toBe(
    reason,
  )
  const request = new Request(`${API}/store/orders/1`, { method: 'DELETE', headers: auth, signal: AbortSignal.abort() })
  const error = await sim.fetch(request).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(DOMException)
  expect((error as DOMException).name).toBe('AbortError')
  expect(sim.journal.entries()).toEqual([])
  expect(sim.order(1)?.status).toBe('pending')
})

test('aborting during a latency rejects at once with the signal’s reason', async () => {
  const time = testTime()
  const sim = createSimulator({ scenario: 'pending', latency: 5_000, time })
  const controller = new AbortController()
  const pending = sim.fetch(LIST, { headers: auth, signal: controller.signal })
  await time.untilPending()
  expect(await settledNow(pending)).toBe('pending')
  controller.abort()
  const settled = await settledNow(pending)
  expect(settled).not.toBe('pending')
  expect((settled as { error: DOMException }).error.name).toBe('AbortError')
})

test('aborting during a hang rejects at once with the signal’s reason (a timeout’s TimeoutError)', async () => {
  // The hang waits on the test's time, which never moves: only the signal ends it. Its 100 ms are real, being
  // AbortSignal.timeout's own; the test waits for the signal however long it takes, then for nothing more.
  const sim = simulator({ scenario: 'pending', time: testTime() })
  sim.addFault({ operation: 'cancelOrder', kind: 'hang', times: 1 })
  const signal = AbortSignal.timeout(100)
  const pending = sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: auth, signal })
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
  const settled = await settledNow(pending)
  expect((settled as { error: DOMException }).error.name).toBe('TimeoutError')
  expect(sim.order(1)?.status).toBe('pending')
})

test('a slow body streams: its first piece comes before the last, and aborting mid-body errors the stream with the reason', async () => {
  const sim = simulator()
  sim.addFault({ operation: 'listOrders', kind: 'slow-body', durationMs: 1_000 })
  // Paced on the real clock (the body stream takes no time source): a piece every 100 ms, each timer set when the
  // one before fired. The bounds below order timers, so a busy machine that runs them all late still passes.
  const whole = await sim.fetch(LIST, { headers: auth })
  expect(whole.status).toBe(200)
  const reader = (whole.body as ReadableStream<Uint8Array>).getReader()
  const first = await within(500, reader.read())
  expect(first).not.toBe('pending')
  const pieces = [(first as { value: ReadableStreamReadResult<Uint8Array> }).value]
  for (let next = await reader.read(); !next.done; next = await reader.read()) pieces.push(next)
  expect(pieces).toHaveLength(10)

  const controller = new AbortController()
  const response = await sim.fetch(LIST, { headers: auth, signal: controller.signal })
  const body = response.text()
  expect(await within(150, body)).toBe('pending')
  const reason = new Error('enough')
  controller.abort(reason)
  expect(await settledNow(body)).toEqual({ error: reason })
})

test('aborting after the answer arrived still errors a body not yet read, as a real fetch does', async () => {
  const sim = simulator()
  const controller = new AbortController()
  const response = await sim.fetch(LIST, { headers: auth, signal: controller.signal })
  controller.abort()
  await expect(response.text()).rejects.toMatchObject({ name: 'AbortError' })
  // Read before the abort, it is whole.
  const read = await sim.fetch(LIST, { headers: auth, signal: new AbortController().signal })
  expect(JSON.parse(await read.text())).toHaveLength(3)
})

test('a network fault rejects with TypeError: fetch failed, whose cause names the fault; the next request is answered', async () => {
  const sim = simulator()
  const fault = sim.addFault({ operation: 'listOrders', kind: 'network', times: 1 })
  const error = await sim.fetch(LIST, { headers: auth }).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(TypeError)
  expect((error as TypeError).message).toBe('fetch failed')
  expect(((error as TypeError).cause as Error).message).toBe(
    `Injected fault #${fault.id} (network) on listOrders dropped the connection on purpose.`,
  )
  expect((await sim.fetch(LIST, { headers: auth })).status).toBe(200)
  expect(sim).toHaveReceived({ operation: 'listOrders' }, { times: 2 })
})

test('a hang that runs its course rejects the same way, saying how long it held the request', async () => {
  const sim = simulator()
  sim.addFault({ operation: 'listOrders', kind: 'hang', durationMs: 20, times: 1 })
  const error = await sim.fetch(LIST, { headers: auth }).catch((caught: unknown) => caught)
  expect(((error as TypeError).cause as Error).message).toMatch(
    /\(hang\) on listOrders held the request 20 ms, then dropped the connection\.$/,
  )
})

test('sessions, Prefer, rate limits and the pact work through sim.fetch as over HTTP', async () => {
  const sim = createSimulator({ scenario: 'pending', rateLimit: '2/60s', time: testTime() })
  const session = { ...auth, 'X-Sim-Session': 'run-1' }
  expect((await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: session })).status).toBe(204)
  expect(sim.session('run-1').order(1)?.status).toBe('cancelled')
  expect(sim.order(1)?.status).toBe('pending')

  const preferred = await sim.fetch(LIST, { headers: { ...auth, Prefer: 'code=401' } })
  expect([preferred.status, preferred.headers.get('Preference-Applied')]).toEqual([401, 'code=401'])
  expect((await sim.fetch(LIST, { headers: auth })).status).toBe(200)
  const limited = await sim.fetch(LIST, { headers: auth })
  expect(limited.status).toBe(429)
  expect(limited.headers.get('RateLimit-Limit')).toBe('2')

  const pact = createSimulator({ scenario: 'pending' })
  await pact.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: auth })
  expect(pact.pact({ consumer: 'web' }).interactions.map((interaction) => interaction.providerStates?.[0]?.name)).toEqual([
    'order 1 is pending',
  ])
})

test('fifty cancels of one order sent at once through sim.fetch give exactly one 204', async () => {
  const sim = simulator()
  const statuses = await Promise.all(
    Array.from({ length: 50 }, () =>
      sim.fetch(`${API}/store/orders/2`, { method: 'DELETE', headers: auth }).then((response) => response.status),
    ),
  )
  expect(statuses.filter((status) => status === 204)).toHaveLength(1)
  expect(statuses.filter((status) => status === 409)).toHaveLength(49)
})
