import type { SimulatorOptions } from '../../core/simulator/types.js'
import { nodePlatform } from '../../platform/node/node-platform.js'
import { requiredGeneration } from './required-generation.js'
import { buildSimulator, type Simulator } from './build-simulator.js'
import { bundledMsw } from './bundled-msw.js'

/**
 * `createSimulator` where msw is imported with the code: in the standalone
 * server and `./node`'s bundled paths (Node only: it reads a scenarios folder).
 */
export function createBundledSimulator(options: SimulatorOptions = {}): Simulator {
  return buildSimulator(options, nodePlatform(requiredGeneration()), bundledMsw)
}
