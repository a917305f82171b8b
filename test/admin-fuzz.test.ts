import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createSimulator, isScenarioError, type SimulatorView } from '../src/index.js'
import { ApiError } from '../src/core/api-error.js'
import type { AdminOperation } from '../src/core/admin/admin-operation.js'
import { ADMIN_OPERATIONS, answerOf } from '../src/core/admin/admin-table.js'
import { scenarioSource } from '../src/core/admin/scenario-catalog.js'
import type { SimulatorCore } from '../src/core/simulator/types.js'
import { adminOpenApiDocument, createSimulatorApp } from '../src/server.js'
import { parseExactJson } from '../src/core/exact-json.js'
import { calls, type FuzzCall, send, snapshot } from './support/admin-fuzz.mjs'
import { runs } from './support/runs.js'
import { listen } from './support/serve.js'

/**
 * Random admin calls (every route of the admin document, random methods, JSON
 * with int64 edges, deep, truncated and non-JSON bodies, random sessions)
 * mixed with order API calls. FC_SEED=<n> replays a run.
 */
const SEED = Number(process.env['FC_SEED'] ?? Math.floor(Math.random() * 2 ** 31))
console.log(`[admin-fuzz] fast-check seed ${SEED} (replay with FC_SEED=${SEED})`)

const sequences = fc.array(calls(adminOpenApiDocument), { minLength: 1, maxLength: 8 })
const shown = (call: FuzzCall) =>
  `${call.method} ${call.path.slice(0, 100)} (session ${JSON.stringify(call.session)}) body ${JSON.stringify(call.body?.slice(0, 100))}`

test('over HTTP, no admin or API input answers a 5xx, and a 4xx changes nothing', async () => {
  const routes = await (async () => {
    const errors: unknown[] = []
    const { listener } = createSimulatorApp({ scenario: 'pending', onError: (error) => errors.push(error) })
    const server = await listen(listener)
    const served = (await (await fetch(`${server.origin}/__sim/openapi.json`)).json()) as typeof adminOpenApiDocument
    await server.close()
    return served
  })()
  expect(routes).toEqual(adminOpenApiDocument)
  await fc.assert(
    fc.asyncProperty(sequences, async (sequence) => {
      const errors: unknown[] = []
      const { listener } = createSimulatorApp({ scenario: 'pending', onError: (error) => errors.push(error) })
      const server = await listen(listener)
      try {
        for (const call of sequence) {
          const before = await snapshot(server.origin, call.session)
          // Only a call that may stall (the order API, in a session with a fault or latency) is given up on soon;
          // any other must answer, however busy the machine: the test's own timeout bounds it.
          const answer = await send(server.origin, call, call.kind === 'api' && before.misbehaves ? 2000 : 60_000)
          if (answer.error !== undefined || answer.status >= 500) {
            // Only the order API fails or stalls, and only when the sequence asked for it (a fault, a latency).
            const why = `${shown(call)} -> ${answer.status} ${answer.text.slice(0, 200)} ${String(answer.error ?? '')}`
            expect(call.kind === 'api' && before.misbehaves, why).toBe(true)
          } else if (answer.status >= 400) {
            expect((await snapshot(server.origin, call.session)).text, `${shown(call)} -> ${answer.status}`).toBe(before.text)
          }
        }
        expect(errors).toEqual([])
      } finally {
        await server.close()
      }
    }),
    { seed: SEED, numRuns: runs(200, 20) },
  )
}, 180_000)

/** What an admin call does in process: the admin table's own handler, given the same input over the simulator's view (its `sim` methods). */
function inProcess(sim: SimulatorCore, view: SimulatorView, call: FuzzCall, body: unknown): Promise<unknown> | undefined {
  const operation = call.operationId === undefined ? undefined : (ADMIN_OPERATIONS as Record<string, AdminOperation>)[call.operationId]
  if (operation?.run === undefined) return undefined
  const name = /\{(\w+)\}/.exec(operation.path)?.[1]
  const params = name === undefined ? {} : { [name]: call.param ?? '' }
  const query = Object.fromEntries(new URLSearchParams(call.query ?? ''))
  return answerOf(operation, { view, sim, scenarios: scenarioSource(sim.scenario(), undefined), params, query, body })
}

const inProcessState = (view: SimulatorView) =>
  JSON.stringify({ state: view.state(), faults: view.faults(), latency: view.latency(), rateLimit: view.rateLimit() }, (_key, value) =>
    typeof value === 'bigint' ? `${value}n` : value,
  )

test('in process, the same inputs through the admin handlers over the sim methods throw a TypeError or an ApiError, and change nothing when they do', async () => {
  await fc.assert(
    fc.asyncProperty(sequences, async (sequence) => {
      const sim = createSimulator({ scenario: 'pending', onError: (error) => expect.fail(String(error)) })
      for (const call of sequence) {
        const view = call.session === undefined ? sim : sessionOrNull(sim, call.session)
        if (view === null) continue
        let body: unknown
        try {
          body = call.body === undefined ? undefined : parseExactJson(call.body)
        } catch {
          continue // Not JSON: over HTTP a 400; in process there is no text to parse.
        }
        const before = inProcessState(view)
        try {
          await inProcess(sim, view, call, body)
        } catch (error) {
          const allowed =
            error instanceof TypeError || error instanceof ApiError || (call.operationId === 'reset' && isScenarioError(error))
          expect(allowed, `${call.operationId}(${shown(call)}) threw ${String(error)}`).toBe(true)
          expect(inProcessState(view), `${call.operationId} changed the state and threw`).toBe(before)
        }
      }
      sim.close()
    }),
    { seed: SEED, numRuns: runs(500, 50) },
  )
}, 180_000)

/** The session a call names, or null for an id the simulator refuses (a TypeError, checked by the sessions tests). */
function sessionOrNull(sim: ReturnType<typeof createSimulator>, id: string): SimulatorView | null {
  try {
    return sim.session(id)
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError)
    return null
  }
}
