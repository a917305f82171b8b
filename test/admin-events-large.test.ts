// Issue 42, section 5: the event stream of a large state. A reader that reads
// gets whole events and stays; only one that stops reading is dropped.
import { get, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import express from 'express'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createSimulator, type Simulator } from '../src/index.js'
import { type RunningSimulator, startSimulatorServer } from '../src/server.js'
import { eventsRoute } from '../src/transports/express/admin/admin-events.js'
import { createHttpServer } from '../src/transports/node/http-server.js'
import { useAdminApi } from './support/serve.js'

// Each test serializes and streams states of 100,000 orders: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 20_000 })

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

const AUTH = { Authorization: 'Bearer petstore-test-key' }
const ORDERS = 100_000
const big = (name: string) => ({ name, generate: { count: ORDERS, seed: 1, statuses: { pending: 1 } } })

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()))
})

interface State {
  scenario: string
  orders: { id: number; status: string }[]
}

/**
 * Follows `GET /__sim/events` as a reader that reads everything at once;
 * `next(name)` waits for the next whole event of that name, and fails when
 * the stream closes first.
 */
function follow(origin: string, headers: Record<string, string> = {}) {
  const events: { event: string; data: string }[] = []
  let closed = false
  let received = 0
  let wake = () => {}
  const request = get(`${origin}/__sim/events`, { headers, agent: false }, (response) => {
    // Pieces kept as they come and joined once per event: a state of 11 MB is not copied for each piece.
    let pieces: Buffer[] = []
    let previous = -1
    response.on('data', (chunk: Buffer) => {
      received += chunk.length
      let from = 0
      for (;;) {
        // Where the blank line that ends an event ends, this chunk's first byte included.
        const pair = chunk.indexOf('\n\n', from)
        const last = from === 0 && previous === 10 && chunk[0] === 10 ? 0 : pair === -1 ? -1 : pair + 1
        if (last === -1) break
        const block = Buffer.concat([...pieces, chunk.subarray(from, last + 1)])
          .toString('utf8')
          .replace(/\n+$/, '')
        const match = /^event: (\w+)\ndata: /.exec(block)
        if (match?.[1] !== undefined) events.push({ event: match[1], data: block.slice(match[0].length) })
        pieces = []
        previous = -1
        from = last + 1
      }
      if (from < chunk.length) {
        pieces.push(chunk.subarray(from))
        previous = chunk[chunk.length - 1] ?? -1
      }
      wake()
    })
    response.on('close', () => {
      closed = true
      wake()
    })
  })
  request.on('error', () => {
    closed = true
    wake()
  })
  cleanups.push(() => request.destroy())
  let read = 0
  return {
    get open() {
      return !closed
    },
    async next(name: string): Promise<unknown> {
      for (;;) {
        const index = events.findIndex((event, at) => at >= read && event.event === name)
        if (index !== -1) {
          read = index + 1
          return JSON.parse(events[index]?.data ?? '')
        }
        if (closed) throw new Error(`the stream closed after ${received} bytes, before a whole "${name}" event`)
        await new Promise<void>((resolve) => (wake = resolve))
      }
    },
  }
}

async function start(options: Parameters<typeof startSimulatorServer>[0]): Promise<RunningSimulator & { origin: string }> {
  const server = await startSimulatorServer({ port: 0, host: '127.0.0.1', ...options })
  cleanups.push(() => server.close())
  return Object.assign(server, { origin: new URL(server.url).origin })
}

describe('GET /__sim/events of a large state', () => {
  test('readers that read get whole state events of 100,000 orders, stay connected, and get the next change', async () => {
    const { origin } = await start({ scenario: big('big') })
    const first = follow(origin)
    const state = (await first.next('state')) as State
    expect(state.scenario).toBe('big')
    expect(state.orders).toHaveLength(ORDERS)
    const id = state.orders[0]?.id
    // A second reader gets the same state (its text made once, for both).
    const second = follow(origin)
    expect(await second.next('state')).toEqual(state)

    expect((await fetch(`${origin}/v1/store/orders/${id}`, { method: 'DELETE', headers: AUTH })).status).toBe(204)
    for (const reader of [first, second]) {
      const changed = (await reader.next('state')) as State
      expect(changed.orders).toHaveLength(ORDERS)
      expect(changed.orders[0]).toMatchObject({ id, status: 'cancelled' })
      expect(changed.orders[1]).toMatchObject({ status: 'pending' })
      expect(reader.open).toBe(true)
    }
  }, 60_000)

  test('a session ended and made again is followed with its own orders, not those sent before', async () => {
    const { origin } = await start({ scenario: 'pending' })
    const session = { 'X-Sim-Session': 'qa-1' }
    const before = (await follow(origin, session).next('state')) as State
    expect(before.orders.map((order) => order.status)).toEqual(['pending', 'pending', 'pending'])
    await fetch(`${origin}/__sim/reset`, { method: 'POST', body: '{"scenario":"shipped"}' })
    expect((await fetch(`${origin}/__sim/sessions/qa-1`, { method: 'DELETE' })).status).toBe(204)
    const after = (await follow(origin, session).next('state')) as State
    expect(after.scenario).toBe('shipped')
    expect(after.orders.map((order) => order.status)).not.toContain('pending')
  })
})

describe('a reader that stops reading', () => {
  /** The event stream alone, as the admin router mounts it, with a stall bound a test can wait for. */
  async function serveEvents(sim: Simulator, stallMs: number): Promise<{ server: Server; port: number }> {
    const app = express()
    app.get('/__sim/events', (_req, res, next) => {
      res.locals['view'] = sim
      res.locals['sessionId'] = null
      next()
    })
    app.get('/__sim/events', eventsRoute(sim, undefined, { stallMs }))
    const server = createHttpServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanups.push(
      () => new Promise<void>((resolve) => server.close(() => resolve())),
      () => server.closeAllConnections(),
    )
    return { server, port: (server.address() as AddressInfo).port }
  }

  const connections = (server: Server) =>
    new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))))

  test('is closed once it has taken nothing for the stall bound, its unsent state dropped', async () => {
    const sim = createSimulator({ scenario: big('big') })
    cleanups.push(() => sim.close())
    const { server, port } = await serveEvents(sim, 300)
    // The server's end of the connection: the stall bound runs on the real clock, so the test waits for the close itself.
    const closed = new Promise<void>((resolve) => server.once('connection', (socket: Socket) => socket.once('close', () => resolve())))
    const idle: Socket = connect(port, '127.0.0.1')
    idle.on('error', () => {})
    cleanups.push(() => idle.destroy())
    idle.write('GET /__sim/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    // The answer has begun; from now on the socket is never read, so the server's writes back up.
    const first = await new Promise<string>((resolve) => idle.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))))
    idle.pause()
    expect(first).toMatch(/^HTTP\/1\.1 200 /)
    await closed
    expect(await connections(server)).toBe(0)
  }, 30_000)
})
