import type { BrowserContext, TestInfo } from '@playwright/test'
import { checkPactNames, type PactOptions } from '../../core/pact/pact-names.js'
import { mapValidation } from '../../core/validation-error.js'
import { openRouteFixture } from './route-fixture.js'
import { openServerFixture } from './server-fixture.js'
import { appOriginOf } from './session-baggage.js'
import { SIMULATOR_MODES, type FixtureSettings, type SimulatorFixture, type SimulatorMode } from './simulator-fixture.js'
import { quote } from '../../core/quote-value.js'

/** The options a test sets with `test.use({...})` or the config's `use`. */
export interface SimulatorTestOptions {
  /** The scenario each test starts from, by name. Default `'default'`. */
  scenario: string
  /** The base URL the app calls. Default `process.env.PETSTORE_SIM_URL`, else `http://127.0.0.1:4010/v1`. */
  simulatorUrl: string
  /** `'server'` (default): the running simulator answers; `'route'`: one inside the test process does. */
  simulatorMode: SimulatorMode
  /** The admin token of a server started with `--admin-token`. Default `process.env.PETSTORE_SIM_ADMIN_TOKEN`. */
  simulatorAdminToken: string | undefined
  /**
   * Write a Pact contract of the run: each test that passes adds its session's
   * interactions to `pacts/<consumer>-<provider>.json` (under the working
   * directory, or `dir`). Off by default.
   */
  pact: PactFixtureOptions | undefined
  /**
   * The folder each test's outcome coverage is written to, one file per test
   * (`petstore-sim coverage` merges them; docs/coverage.md), or `false` for
   * none. Default `petstore-coverage` under the working directory.
   */
  simulatorCoverage: string | false
}

/** The `pact` option: who the run's pact is between, and where it goes. */
export interface PactFixtureOptions extends PactOptions {
  /** The folder of the pact file. Default `pacts` under the working directory. */
  dir?: string
}

/**
 * The `sim` of one test: its own session, unique across workers and retries, in the mode its options ask for.
 * `baseURL` is Playwright's: the app's origin, whose requests join the session as the simulator's do.
 */
export async function openSimulatorFixture(
  context: BrowserContext,
  options: SimulatorTestOptions & { baseURL?: string | undefined },
  testInfo: Pick<TestInfo, 'workerIndex' | 'retry' | 'annotations'>,
): Promise<{ sim: SimulatorFixture; close(): Promise<void> }> {
  if (!SIMULATOR_MODES.includes(options.simulatorMode))
    throw new TypeError(`simulatorMode must be one of ${SIMULATOR_MODES.join(', ')}; got ${quote(options.simulatorMode)}.`)
  if (typeof options.scenario !== 'string' || options.scenario === '')
    throw new TypeError(`scenario must be a scenario name such as 'pending'; got ${quote(options.scenario)}.`)
  if (options.simulatorCoverage !== false && (typeof options.simulatorCoverage !== 'string' || options.simulatorCoverage === ''))
    throw new TypeError(`simulatorCoverage must be a folder or false; got ${quote(options.simulatorCoverage)}.`)
  if (options.pact !== undefined)
    mapValidation(
      () => checkPactNames(options.pact),
      (error) => {
        throw new TypeError(`pact: ${error.message}`)
      },
    )
  const url = typeof options.simulatorUrl === 'string' && URL.canParse(options.simulatorUrl) ? new URL(options.simulatorUrl) : null
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new TypeError(
      `simulatorUrl must be the absolute http(s) URL the app calls, such as http://127.0.0.1:4010/v1; got ${quote(options.simulatorUrl)}.`,
    )
  const settings: FixtureSettings = {
    scenario: options.scenario,
    url,
    appOrigin: appOriginOf(options.baseURL),
    session: `pw-${testInfo.workerIndex}-${testInfo.retry}-${crypto.randomUUID()}`,
    adminToken: options.simulatorAdminToken,
    warn(message) {
      // An annotation shows in the HTML and JSON reports; the console line in the terminal's.
      testInfo.annotations.push({ type: 'warning', description: message })
      console.warn(`[petstore-orders-simulator] ${message}`)
    },
  }
  return options.simulatorMode === 'route' ? openRouteFixture(context, settings) : openServerFixture(context, settings)
}
