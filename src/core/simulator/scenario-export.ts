import type { Scenario } from '../scenario/scenario.js'

/** What `exportScenario` and `saveScenario` take. */
export interface ExportOptions {
  /** The scenario's name. Default: the name of the scenario loaded now. */
  name?: string
  /** Its line for people. Default: the description of the scenario loaded now. */
  description?: string
}

/** What `saveScenario` takes besides the name. */
export interface SaveOptions {
  /** Its line for people. Default: says which scenario the state came from. */
  description?: string
  /** Replace a file of that name (default false: a 409 `scenario_exists`). */
  overwrite?: boolean
}

/** Where a saved scenario went. */
export interface SavedScenario {
  name: string
  /** The file written, `<scenariosDir>/<name>.json`. */
  path: string
  /** Whether it replaced a file of that name. */
  overwritten: boolean
}

/** The scenario methods of a simulator or session: its state as a scenario, and that scenario saved in the scenarios folder. */
export interface ScenarioExport {
  /**
   * This state as a scenario object that loads back to it (`reset(it)`):
   * orders as they are now, keys, switches, latency, faults, rate limit and
   * lifecycle. Works in the browser too. Throws a `TypeError` for a bad name.
   * @example
   * const saved = sim.exportScenario({ name: 'after-checkout' })
   */
  exportScenario(options?: ExportOptions): Scenario
  /**
   * Writes this state as `<name>.json` in the scenarios folder (the
   * `scenariosDir` option, Node.js only), whole or not at all; from then on
   * `reset('<name>')` loads it, in every session. Rejects with a `TypeError`
   * for a name that is not 1 to 64 lower-case letters, digits and dashes, and
   * an `ApiError` 409 when the name is taken (`scenario_exists`; a built-in
   * name always is) or there is no folder it can write (`scenarios_dir_unavailable`).
   * @example
   * await sim.saveScenario('qa-big', { description: 'Forty orders, two shipped' })
   */
  saveScenario(name: string, options?: SaveOptions): Promise<SavedScenario>
}
