import { loadScenarioFile } from './scenario-file.js'
import { openScenarioFolder } from './scenario-folder.js'

/**
 * What a simulator reads from disk, which only Node.js builds pass: a
 * scenario file by path, and the scenarios folder. A page passes none, so it
 * loads none of their code (a file's JSON reader among it).
 */
export interface ScenarioFiles {
  loadFile: typeof loadScenarioFile
  openFolder: typeof openScenarioFolder
}

export const NODE_SCENARIO_FILES: ScenarioFiles = { loadFile: loadScenarioFile, openFolder: openScenarioFolder }
