import type { BrowserContext } from '@playwright/test'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { openSimulatorFixture } from '../src/transports/playwright/open-fixture.js'
import { createSimulatorApp } from '../src/server.js'
import { listen, useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

// The sim fixture of 'server' mode as Playwright runs it (src/playwright.ts: open, use, close in a finally),
// against a real server, without a browser: the fixture only adds and removes a route on its context.
const serve = useAppServers()
const AUTH = { Authorization: 'Bearer petstore-test-key' }

afterEach(() => {
  vi.restoreAllMocks()
})

/** A browser context whose route calls succeed, or whose unroute fails as a context the test closed itself does. */
function fakeContext(closedByTest = false): BrowserContext {
  const context = {
    route: async () => undefined,
    unroute: async () => {
      if (closedByTest) throw new Error('Target page, context or browser has been closed')
    },
  }
  // Structural: the fixture calls route and unroute only.
  return context as unknown as BrowserContext
}

const testInfo = () => ({ workerIndex: 0, retry: 0, annotations: [] as { type: string; description?: string }[] })

type Ending = 'passes' | 'fails' | 'closes its context'

/** One test's life: the fixture opens, the app calls the API in the test's session, the test ends one way or another. */
async function runTest(origin: string, ending: Ending): Promise<number> {
  const opened = await openSimulatorFixture(
    fakeContext(ending === 'closes its context'),
    {
      scenario: 'pending',
      simulatorUrl: `${origin}/v1`,
      simulatorMode: 'server',
      simulatorAdminToken: undefined,
      pact: undefined,
      simulatorCoverage: false,
    },
    testInfo(),
  )
  try {
    const answer = await fetch(`${origin}/v1/store/orders/1`, {
      method: 'DELETE',
      headers: { ...AUTH, 'X-Sim-Session': opened.sim.session },
    })
    if (ending === 'fails') throw new Error('the test failed')
    return answer.status
  } catch (error) {
    if (ending !== 'fails') throw error
    return 0
  } finally {
    await opened.close().catch((error: Error) => {
      if (ending !== 'closes its context') throw error
    })
  }
}

const sessionsOf = async (origin: string) =>
  ((await (await fetch(`${origin}/__sim/sessions`)).json()) as { id: string }[]).map(({ id }) => id)

describe("the Playwright fixture ends each test's session (server mode)", () => {
  test('twenty tests on a server of five sessions, passing, failing, closing their context or naming an unknown scenario: none refused, none left', async () => {
    const { origin } = await serve({ sessions: { max: 5 } })
    const endings: Ending[] = ['passes', 'fails', 'closes its context']
    for (let run = 0; run < 20; run++) {
      const ending = endings[run % endings.length] as Ending
      expect(await runTest(origin, ending), `test ${run + 1}, which ${ending}`).toBe(ending === 'fails' ? 0 : 204)
      // A test whose scenario does not exist fails at once, with the server's message, not with a full server's.
      await expect(
        openSimulatorFixture(
          fakeContext(),
          {
            scenario: 'no-such-scenario',
            simulatorUrl: `${origin}/v1`,
            simulatorMode: 'server',
            simulatorAdminToken: undefined,
            pact: undefined,
            simulatorCoverage: false,
          },
          testInfo(),
        ),
      ).rejects.toThrow('refused POST /__sim/reset: Unknown scenario "no-such-scenario"')
    }
    expect(await sessionsOf(origin)).toEqual([])
  })

  test("a session the fixture cannot end is a warning in the test's report, not a failure; one already gone is no warning", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const options = {
      scenario: 'pending',
      simulatorMode: 'server',
      simulatorAdminToken: undefined,
      pact: undefined,
      simulatorCoverage: false,
    } as const

    const first = await serve()
    const info = testInfo()
    const ended = await openSimulatorFixture(fakeContext(), { ...options, simulatorUrl: `${first.origin}/v1` }, info)
    // The test ended its session itself: nothing is left for the fixture to do.
    expect((await fetch(`${first.origin}/__sim/sessions/${ended.sim.session}`, { method: 'DELETE' })).status).toBe(204)
    await ended.close()
    expect(info.annotations).toEqual([])
    expect(warn).not.toHaveBeenCalled()

    // A server that stops before the test ends: its own, as useAppServers closes only after the test.
    const { listener, sim } = createSimulatorApp()
    const second = await listen(listener)
    const unended = await openSimulatorFixture(fakeContext(), { ...options, simulatorUrl: `${second.origin}/v1` }, info)
    await second.close()
    sim.close()
    await unended.close()
    const expected = `Failed to end the test's session ${unended.sim.session} at ${second.origin} (ECONNREFUSED). The simulator drops it once idle (--session-idle); until then it counts against --max-sessions.`
    expect(info.annotations).toEqual([{ type: 'warning', description: expected }])
    expect(warn).toHaveBeenCalledWith(`[petstore-orders-simulator] ${expected}`)
  })
})
