// Issue 59: every outcome's recipe, followed over HTTP on a fresh session, gives exactly that outcome.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Recipe, recipeOf } from '../src/core/outcome-coverage/outcome-recipes.js'
import { SPEC_OUTCOMES } from '../src/core/outcome-coverage/outcomes.js'
import { type RunningSimulator, startSimulatorServer } from '../src/server.js'

const OUTCOMES = SPEC_OUTCOMES.outcomes

/** Follows a recipe's steps over HTTP on one session; the request's answer status, for the failure message. */
async function follow(origin: string, session: string, { steps }: Recipe): Promise<number> {
  let status = 0
  for (const step of steps) {
    if ('admin' in step) {
      const { method, path, body } = step.admin
      const response = await fetch(origin + path, {
        method,
        headers: { 'X-Sim-Session': session, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      await response.arrayBuffer()
      expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true)
    } else {
      const { method, path, headers } = step.request
      const response = await fetch(origin + path, { method, headers: { ...headers, 'X-Sim-Session': session } })
      await response.arrayBuffer()
      status = response.status
    }
  }
  return status
}

interface Counted {
  outcomes: { id: string; count: number }[]
  provoked: unknown[]
}

describe.each([
  ['the default base path', undefined],
  ['--base-path /api', '/api'],
])('every recipe, followed on a fresh session of a standalone server (%s), gives exactly its outcome', (_, basePath) => {
  let server: RunningSimulator
  beforeAll(async () => {
    server = await startSimulatorServer({ port: 0, host: '127.0.0.1', ...(basePath === undefined ? {} : { basePath }) })
  }, 60_000)
  afterAll(() => server?.close())

  test.each(OUTCOMES.map((outcome, index) => [outcome.id, outcome, index] as const))('%s', async (id, outcome, index) => {
    const origin = new URL(server.url).origin
    const session = `recipe-${basePath === undefined ? 'v1' : 'api'}-${index}`
    const status = await follow(origin, session, recipeOf(outcome, basePath))
    expect(status).toBe(outcome.status)
    const response = await fetch(`${origin}/__sim/coverage`, { headers: { 'X-Sim-Session': session } })
    const coverage = (await response.json()) as Counted
    expect(Object.fromEntries(coverage.outcomes.map((each) => [each.id, each.count]))).toEqual(
      Object.fromEntries(OUTCOMES.map((each) => [each.id, each.id === id ? 1 : 0])),
    )
    // Nothing the simulator's controls made: the recipe asks the service's own rules.
    expect(coverage.provoked).toEqual([])
  })
})
