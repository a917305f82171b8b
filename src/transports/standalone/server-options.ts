import type { Server } from 'node:http'
import type { SimulatorAppOptions } from '../express/app-options.js'
import type { Simulator } from '../msw/msw-simulator.js'

// The server's options and handle, apart from start-server.ts so that state-start.ts (which start-server uses) can name them.
export interface SimulatorServerOptions extends SimulatorAppOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number
  /**
   * Default 127.0.0.1. On an address that is not loopback, the admin API
   * requires a token: `adminToken`, or a random one made at start
   * (`RunningSimulator.adminToken`).
   */
  host?: string
  /**
   * Told after each save through the admin API (`POST /__sim/scenarios`) has written its file, with the
   * scenario's name: the CLI says then what the recorded traffic showed. What it throws goes to `onError`.
   */
  onSaved?: (saved: { name: string }) => void
  /**
   * A file to keep every state in (the default one and each session's: orders, scenario, clock, latency,
   * faults, rate limit, routes and recordings, outcome counts; not the journal). Restored before the server
   * listens; written atomically within 5 s of a change and by `close()`. Its folder must exist and be
   * writable. A file that cannot be restored is moved to `<path>.corrupt-<time>` and the start is fresh.
   * Not with `simulator` or `restore`: the server restores into the simulator it makes.
   */
  stateFile?: string
  /** Told each warning about `stateFile` as one line: a file set aside, a failed write. Default: stderr. */
  onStateWarning?: (line: string) => void
}

export interface RunningSimulator {
  sim: Simulator
  server: Server
  host: string
  port: number
  /** The base URL of the API, e.g. `http://127.0.0.1:4010/v1`. */
  url: string
  /**
   * The token the admin API requires, or null when it requires none: the
   * `adminToken` option, or one made at start because `host` is not loopback.
   */
  adminToken: string | null
  /** With `stateFile`: how many sessions the file gave back (the default state aside); null when nothing was restored. */
  restoredSessions: number | null
  /** Stops accepting connections, closes those still sending headers, lets requests in flight finish, then resolves. */
  close(): Promise<void>
}
