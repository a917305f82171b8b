import { createRouteBook } from '../routes/route-book.js'
import { createCoverageCounter } from '../outcome-coverage/coverage-counter.js'
import { expect, test } from 'vitest'
import { createControls } from '../controls/controls.js'
import { getPetById } from '../operations/get-pet-by-id.js'
import { parseApiBase } from '../operations/routing.js'
import type { Reply, SimRequest } from '../reply.js'
import { createJournal } from '../state/journal.js'
import type { OrderStore } from '../state/order-store.js'
import type { TimeSource } from '../time-source.js'
import { createDispatcher } from './dispatcher.js'
import { countQueryParses } from '../../../test/support/query-parses.js'

const KEY = 'test-key'

/** A time source that moves only when told to. */
function manualTime(start: number) {
  let now = start
  const timers = new Set<{ at: number; callback: () => void }>()
  const time: TimeSource = {
    now: () => now,
    setTimeout(callback, ms) {
      const timer = { at: now + ms, callback }
      timers.add(timer)
      return timer
    },
    clearTimeout: (handle) => void timers.delete(handle as { at: number; callback: () => void }),
  }
  const advance = (ms: number) => {
    now += ms
    for (const timer of timers) {
      if (timer.at > now) continue
      timers.delete(timer)
      timer.callback()
    }
  }
  return { time, advance }
}

function request(target = '/v1/pets/cat'): SimRequest {
  return {
    method: 'GET',
    target,
    header: (name) => (name === 'Authorization' ? `Bearer ${KEY}` : null),
    signal: undefined,
    bodyExceeds: () => false,
    headerPairs: () => [],
    body: async () => null,
  }
}

/** A dispatcher over one state holding `routes` and `controls`, timed by `time` (the system's when none). */
function dispatcherOf(options: {
  controls?: ReturnType<typeof createControls>
  routes?: Parameters<typeof createRouteBook>[0]
  time?: TimeSource
}) {
  const journal = createJournal(10)
  const instance = {
    store: {} as OrderStore,
    settings: () => ({
      acceptedKeys: new Set([KEY]),
      exposeStatus: false,
      afterCancel: 'keep' as const,
      petBodies: new Map([['cat', '{}']]),
    }),
    controls: options.controls ?? createControls(),
    journal,
    routes: createRouteBook(options.routes ?? []),
    coverage: createCoverageCounter(),
  }
  const dispatcher = createDispatcher({
    base: parseApiBase('/v1'),
    instanceFor: () => instance,
    journal,
    config: { deprecation: { deprecatedAt: new Date(0), sunsetAt: new Date(0) } },
    fallthrough: false,
    bodyLimit: 1024,
    report: () => undefined,
    ...(options.time === undefined ? {} : { time: options.time }),
  })
  return { dispatcher, journal }
}

test('the latency waits and the journal dates the request by the time source given', async () => {
  const { time, advance } = manualTime(Date.UTC(2030, 0, 1))
  const controls = createControls()
  controls.setLatency({ getPetById: { min: 5000, max: 5000 } })
  const { dispatcher, journal } = dispatcherOf({ controls, time })

  let answered: Reply | undefined
  const pending = dispatcher.operation(request(), getPetById, 'cat')
  expect(pending).toBeInstanceOf(Promise)
  void (pending as Promise<Reply>).then((reply) => (answered = reply))
  advance(4999)
  await Promise.resolve()
  expect(answered).toBeUndefined()
  advance(1)
  expect((await pending).status).toBe(200)
  expect(journal.entries().map(({ time, status }) => ({ time, status }))).toEqual([{ time: '2030-01-01T00:00:00.000Z', status: 200 }])
})

test("an operation's request never parses its query; a route's parses it once, only where a route names parameters", async () => {
  const parsed = countQueryParses()
  const { dispatcher } = dispatcherOf({
    routes: [
      { method: 'GET', path: '/search', status: 200, query: { q: 'cat' }, body: 'cat' },
      { method: 'GET', path: '/search', status: 200, body: 'any' },
      { method: 'GET', path: '/inventory', status: 200, auth: false, body: 'plain' },
    ],
  })
  const answer = async (target: string) => {
    const reply = await dispatcher.route(request(target), new URL(`https://api.petstore.example${target}`))
    return [reply?.status, reply?.body]
  }
  expect(await answer('/v1/pets/cat?q=cat&page=2')).toEqual([200, '{}'])
  expect(await answer('/v1/inventory?q=cat')).toEqual([200, '"plain"'])
  expect(parsed).not.toHaveBeenCalled()
  expect(await answer('/v1/search?q=cat')).toEqual([200, '"cat"'])
  expect(await answer('/v1/search?q=dog')).toEqual([200, '"any"'])
  expect(parsed).toHaveBeenCalledTimes(2)
})
