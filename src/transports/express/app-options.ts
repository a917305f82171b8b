import { checkBasePath } from '../../core/operations/routing.js'
import { failInProcess } from '../../core/simulator/simulator.js'
import type { SimulatorOptions } from '../../core/simulator/types.js'
import { mapValidation } from '../../core/validation-error.js'
import type { Simulator } from '../msw/build-simulator.js'
import type { HostCheckOptions } from '../node/host-check.js'

export interface SimulatorAppOptions extends Omit<SimulatorOptions, 'baseUrl'> {
  /** The path the API is served under (default `/v1`), on whatever host the server is reached by. */
  basePath?: string
  /** Serve the admin API under `/__sim` (default true). */
  admin?: boolean
  /** When set, every admin call must send `Authorization: Bearer <adminToken>` (401 otherwise). */
  adminToken?: string
  /**
   * Host names (a leading dot for a domain and its subdomains) answered
   * besides loopback names and addresses; `'all'` turns the Host check off.
   * Any other Host gets 403 `forbidden_host`.
   */
  allowedHosts?: HostCheckOptions['allowedHosts']
  /** Origins of web pages allowed to call the admin API besides loopback origins and the server's own. */
  adminOrigins?: readonly string[]
  /** Receives one line per request (`GET /v1/store/orders 200 1.2ms`); omit it for silence. */
  log?: (line: string) => void
  /** Serve this simulator instead of creating one from the options; what it fails at goes to its own `onError`. */
  simulator?: Simulator
}

/**
 * The simulator an app or server serves, and its base path, checked as the
 * in-process API checks options; `create` makes one when none is given.
 */
export function simulatorFor(
  options: SimulatorAppOptions,
  create: (options: SimulatorOptions) => Simulator,
): { sim: Simulator; basePath: string } {
  const basePath = mapValidation(
    () => checkBasePath(options.basePath),
    (error) => failInProcess(error, 'create'),
  )
  return { sim: options.simulator ?? create({ ...options, baseUrl: basePath }), basePath }
}
