import type { ProxySetup } from './dispatch/request-context.js'
import type { OrderGeneration } from './scenario/order-generation.js'
import type { CheckedScenario } from './scenario/parse-scenario.js'

/**
 * What only some runtimes have, given once where a simulator is made (as msw keeps `core` apart from
 * `node` and `browser`): Node.js entries pass src/platform/node's; a page passes `generation` alone, so
 * it bundles no file, folder or forwarding code and has no proxy (a real key in a page is anyone's).
 */
export interface Platform {
  /** Makes generated orders: faker's code, loaded when a scenario first needs it. */
  generation: OrderGeneration
  /** Reads a scenario file by path (the `scenario` option or a reset naming one). */
  loadFile?: (path: string) => CheckedScenario
  /** Opens the `scenariosDir` option's folder; `warn` is told of its problems, `now` is the simulator's clock. */
  openFolder?: (dir: string, warn: (line: string) => void, time: { now: () => number }) => ScenarioFolder
  /** Checks the `proxy` option into where requests no operation or route takes are forwarded. */
  proxy?: (option: ProxyOption) => ProxySetup
  /**
   * Takes and restores snapshots (`createSnapshots` of core/simulator/snapshot.ts): Node.js builds give
   * it, so that a page never loads what only a test runner or a server's state file uses.
   */
  snapshots?: SnapshotMaker
}

/**
 * `createSnapshots`, typed loosely here: its own type names the simulator's parts, which import this
 * file; simulator.ts reads it back as `typeof createSnapshots`.
 */
type SnapshotMaker = (context: never) => unknown

/** The `proxy` option: where requests no operation or route takes are forwarded (docs/proxy.md). */
export interface ProxyOption {
  /** The real deployment's API base, such as "https://staging.example.test/v1". */
  target: string
  /** The real service's key: replaces the client's Authorization. Without it the client's goes as sent. */
  key?: string
  /** Seconds to wait for a whole answer (default 10, at most 600): past it, 504 `proxy_timeout`. */
  timeoutSeconds?: number
  /** Keep each forwarded answer (status below 500, body up to 1 MiB) as a route of the state. Default false. */
  record?: boolean
}

/** A file of the scenarios folder, as the list shows it. */
export interface FolderScenario {
  /** Its file name without `.json`: what a reset names. */
  name: string
  file: string
  description: string
  /** Why it does not load, or null when it does. */
  error: string | null
  /** The line where its JSON stops parsing, when that is the error. */
  line: number | null
}

/** A folder of scenario files, named by their file names, read again whenever it changes. */
export interface ScenarioFolder {
  /** The folder, absolute. */
  readonly dir: string
  /** Its `*.json` files by name, broken ones with their error. */
  list(): FolderScenario[]
  /** The scenario of `<name>.json` read now, and the file's text; undefined without such a file; a `ScenarioError` when it does not load. */
  load(name: string): { scenario: CheckedScenario; source: string; text: string } | undefined
  /** Writes `<name>.json` whole (an `ApiError` 409 when it exists without `overwrite`, or the folder cannot take it). */
  write(name: string, text: string, overwrite: boolean): Promise<{ path: string; overwritten: boolean }>
  /** Stops watching. */
  close(): void
}
