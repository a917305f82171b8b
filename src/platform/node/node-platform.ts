import type { Platform } from '../../core/platform.js'
import type { OrderGeneration } from '../../core/scenario/order-generation.js'
import { loadScenarioFile } from '../../core/scenario/scenario-file.js'
import { createSnapshots } from '../../core/simulator/snapshot.js'
import { checkProxyOption } from './proxy-option.js'
import { openScenarioFolder } from './scenario-folder.js'

/** What Node.js builds pass a simulator: scenario files by path, the scenarios folder, the proxy and snapshots, beside `generation`. */
export function nodePlatform(generation: OrderGeneration): Platform {
  return { generation, loadFile: loadScenarioFile, openFolder: openScenarioFolder, proxy: checkProxyOption, snapshots: createSnapshots }
}
