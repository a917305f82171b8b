import { afterEach, describe, expect, test } from 'vitest'
import { type RunningSimulator, startSimulatorServer } from '../src/server.js'
import { MAX_EVENT_STREAMS } from '../src/transports/express/admin/admin-events.js'
import { useAdminApi } from './support/serve.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

const AUTH = { Authorization: 'Bearer petstore-test-key' }
const running: RunningSimulator[] = []
const streams: AbortController[] = []
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.abort()
  await Promise.all(running.splice(0).map((server) => server.close()))
})

async function start(options: Parameters<typeof startSimulatorServer>[0] = {}): Promise<RunningSimulator & { origin: string }> {
  const server = await startSimulatorServer({ port: 0, host: '127.0.0.1', ...options })
  running.push(server)
  return Object.assign(server, { origin: new URL(server.url).origin })
}

interface Event {
  event: string
  data: unknown
}

/** Opens `GET /__sim/events` and collects its events; `next(event)` waits for the next one of that name. */
async function follow(origin: string, headers: Record<string, string> = {}) {
  const stop = new AbortController()
  streams.push(stop)
  const response = await fetch(`${origin}/__sim/events`, { headers, signal: stop.signal })
  const events: Event[] = []
  let read = 0
  let ended = !(response.ok && response.body !== null)
  const waiting: (() => void)[] = []
  const wakeAll = () => {
    for (const wake of waiting.splice(0)) wake()
  }
  if (!ended) {
    void (async () => {
      let buffer = ''
      const decoder = new TextDecoder()
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true })
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            const event = /^event: (.*)$/m.exec(block)?.[1]
            const data = /^data: (.*)$/m.exec(block)?.[1]
            if (event !== undefined && data !== undefined) events.push({ event, data: JSON.parse(data) })
            wakeAll()
          }
        }
      } catch {
        // Aborted after the test.
      } finally {
        ended = true
        wakeAll()
      }
    })()
  }
  /** Waits for the event itself, however long the machine takes (the test's timeout bounds it); fails if the stream ends first. */
  async function next(name: string): Promise<unknown> {
    for (;;) {
      const index = events.findIndex((event, at) => at >= read && event.event === name)
      if (index !== -1) {
        read = index + 1
        return events[index]?.data
      }
      if (ended) throw new Error(`the stream ended before a "${name}" event; got ${JSON.stringify(events.map((event) => event.event))}`)
      await new Promise<void>((resolve) => waiting.push(resolve))
    }
  }
  return { response, next }
}

describe('GET /__sim/events: server-sent events of the state', () => {
  test('sends the state, the journal, the controls and the sessions on connect, then each change', async () => {
    const { origin } = await start({ scenario: 'pending' })
    const { response, next } = await follow(origin)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await next('state')).toMatchObject({ scenario: 'pending', orders: [{ id: 1, status: 'pending' }, { id: 2 }, { id: 3 }] })
    expect(await next('requests')).toEqual({ reset: true, entries: [] })
    expect(await next('controls')).toEqual({ latency: null, faults: [], rateLimit: null })
    expect(await next('sessions')).toEqual([])

    expect((await fetch(`${origin}/v1/store/orders/2`, { method: 'DELETE', headers: AUTH })).status).toBe(204)
    expect(await next('state')).toMatchObject({ orders: [{ status: 'pending' }, { id: 2, status: 'cancelled' }, { status: 'pending' }] })
    expect(await next('requests')).toMatchObject({
      reset: false,
      entries: [{ method: 'DELETE', status: 204, operation: 'cancelOrder', orderId: 2 }],
    })

    await fetch(`${origin}/__sim/faults`, { method: 'POST', body: '{"operation":"cancelOrder","kind":"status","status":503}' })
    expect(await next('controls')).toMatchObject({ faults: [{ operation: 'cancelOrder', status: 503, remaining: null }] })
    await fetch(`${origin}/__sim/requests`, { method: 'DELETE' })
    expect(await next('requests')).toEqual({ reset: true, entries: [] })
  })

  test('X-Sim-Session follows that session only; the list of sessions changes as they come', async () => {
    const { origin } = await start({ scenario: 'pending' })
    const all = await follow(origin)
    expect(await all.next('sessions')).toEqual([])
    const mine = await follow(origin, { 'X-Sim-Session': 'qa-1' })
    expect(await mine.next('state')).toMatchObject({ scenario: 'pending' })
    expect(await all.next('sessions')).toEqual([{ id: 'qa-1', scenario: 'pending' }])
    await fetch(`${origin}/__sim/reset`, { method: 'POST', headers: { 'X-Sim-Session': 'qa-1' }, body: '{"scenario":"shipped"}' })
    expect(await mine.next('state')).toMatchObject({ scenario: 'shipped' })
    await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: { ...AUTH, 'X-Sim-Session': 'qa-1' } })
    expect(await mine.next('requests')).toMatchObject({ entries: [{ status: 409, orderId: 1 }] })
    expect(await all.next('sessions')).toEqual([{ id: 'qa-1', scenario: 'shipped' }])
  })

  test('asks for the admin token like any admin call, and is bounded in number', async () => {
    const guarded = await start({ adminToken: 'sesame' })
    expect((await fetch(`${guarded.origin}/__sim/events`)).status).toBe(401)
    const { response } = await follow(guarded.origin, { Authorization: 'Bearer sesame' })
    expect(response.status).toBe(200)

    const { origin } = await start()
    for (let index = 0; index < MAX_EVENT_STREAMS; index++) expect((await follow(origin)).response.status).toBe(200)
    const refused = await fetch(`${origin}/__sim/events`)
    expect(refused.status).toBe(503)
    expect(((await refused.json()) as { message: string }).message).toContain(`At most ${MAX_EVENT_STREAMS} event streams`)
  })

  test('closing the server ends the open streams instead of waiting for them', async () => {
    const server = await startSimulatorServer({ port: 0, host: '127.0.0.1' })
    const { response } = await follow(new URL(server.url).origin)
    expect(response.status).toBe(200)
    // A close that waited for the stream would wait for ever (it never ends on its own): the test's timeout catches it.
    await expect(server.close()).resolves.toBeUndefined()
  })
})

describe('GET /__sim/: the QA panel page', () => {
  test('is HTML that only its own origin may frame or script, served without the admin token; /__sim stays JSON for scripts', async () => {
    const { origin } = await start({ adminToken: 'sesame' })
    const page = await fetch(`${origin}/__sim/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    // The page is its script's: it builds the panel's sections (the Chromium tests find its Orders table).
    expect(await page.text()).toContain('<script type="module" src="./panel/main.js"></script>')
    const script = await fetch(`${origin}/__sim/panel/main.js`)
    expect(script.status).toBe(200)
    const code = await script.text()
    expect(code.length).toBeLessThan(100 * 1024)
    expect(code).toContain('Orders')
    const style = await fetch(`${origin}/__sim/panel/panel.css`)
    expect([style.status, style.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8'])

    expect((await fetch(`${origin}/__sim`, { headers: { Authorization: 'Bearer sesame' } })).headers.get('content-type')).toContain(
      'application/json',
    )
    const browser = await fetch(`${origin}/__sim`, { headers: { Accept: 'text/html,*/*;q=0.8' }, redirect: 'manual' })
    expect(browser.status).toBe(302)
    expect(browser.headers.get('location')).toBe('/__sim/')
  })
})
