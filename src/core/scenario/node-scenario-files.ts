import { checkProxyOption } from '../proxy/proxy-option.js'
import { loadScenarioFile } from './scenario-file.js'
import { openScenarioFolder } from './scenario-folder.js'

/**
 * What only Node.js builds pass a simulator: a scenario file read by path,
 * the scenarios folder, and the proxy option's check. A page passes none, so
 * it loads none of their code (a file's JSON reader among it), and has no
 * proxy: a real service's key in a page is anyone's who loads it.
 */
export interface ScenarioFiles {
  loadFile: typeof loadScenarioFile
  openFolder: typeof openScenarioFolder
  checkProxy: typeof checkProxyOption
}

export const NODE_SCENARIO_FILES: ScenarioFiles = {
  loadFile: loadScenarioFile,
  openFolder: openScenarioFolder,
  checkProxy: checkProxyOption,
}
