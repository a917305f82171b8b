import type { SimulatorView } from '../../core/simulator/types.js'

export const SIMULATOR_MODES = ['server', 'route'] as const
/** `'server'`: a running petstore-sim answers the browser; `'route'`: a simulator in the test process does, through Playwright's routing. */
export type SimulatorMode = (typeof SIMULATOR_MODES)[number]

/**
 * The members of `SimulatorView` a fixture leaves out: `journal` (the fixture
 * has `clearRequests`), `reset` (the fixture's names its scenario, as the
 * admin API does) and verbs the fixture has never offered. Every other verb
 * is the fixture's, its result a promise: a new verb of the view reaches
 * `'route'` mode as it stands, and `'server'` mode does not compile until it
 * says which admin call the verb is.
 */
export const UNOFFERED_VERBS = [
  'journal',
  'reset',
  'order',
  'scenario',
  'changeProviderState',
  'removeFault',
  'latency',
  'rateLimit',
  'exportScenario',
  'saveScenario',
] as const satisfies readonly (keyof SimulatorView)[]

/** A verb of the view as a fixture offers it: the same arguments, its result as a promise. */
type Promised<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never

/** The verbs of `SimulatorView` a fixture offers, each as a promise. */
export type FixtureVerbs = {
  [K in keyof Omit<SimulatorView, (typeof UNOFFERED_VERBS)[number]>]: Promised<SimulatorView[K]>
}

/**
 * One test's simulator state, the same verbs in both modes. In `'server'`
 * mode it is a session of the running simulator, opened for this test only;
 * in `'route'` mode a session of a simulator inside the test process.
 */
export interface SimulatorFixture extends FixtureVerbs {
  /**
   * This test's session id: every request the test's browser context sends to
   * the simulator carries it as `X-Sim-Session`. In `'server'` mode, so do its
   * requests to the app's own origin (`baseURL`), and both carry it in
   * `baggage: sim-session=<id>` too, which an app server instrumented with
   * OpenTelemetry passes on to the simulator (docs/ssr.md).
   */
  readonly session: string
  readonly mode: SimulatorMode
  /** The base URL the app calls (the `simulatorUrl` option), e.g. `http://127.0.0.1:4010/v1`. */
  readonly url: string
  /** Forgets the session's recorded requests. */
  clearRequests(): Promise<void>
  /** Back to the initial state of `scenario` (by name), or of the current one when none is given. */
  reset(scenario?: string, options?: { seed?: number }): Promise<void>
}

/** What a fixture is opened with: the test's options and its session id. */
export interface FixtureSettings {
  scenario: string
  url: URL
  /** The origin of Playwright's `baseURL`, whose requests join the session too ('server' mode); null without one. */
  appOrigin: string | null
  session: string
  adminToken: string | undefined
  /** Tells the test's report of a problem that must not fail the test, such as a session the fixture could not end. */
  warn(message: string): void
}
