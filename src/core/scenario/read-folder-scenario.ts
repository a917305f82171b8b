import { describe } from '../quote-value.js'
import { systemErrorCode } from '../system-error-code.js'
import { isPlainObject } from './expect-value.js'
import type { FolderFileSystem } from './folder-file-system.js'
import { isBuiltinScenarioName, parseScenarioJson } from './load-scenario.js'
import { parseScenario, SCENARIO_NAME, type CheckedScenario } from './parse-scenario.js'
import { isScenarioError, ScenarioError } from './scenario-error.js'

/** The largest file the folder reads, and the largest scenario a save writes (about 40,000 orders). */
export const MAX_FOLDER_FILE_BYTES = 4 * 1024 * 1024

/** Reads and checks one file of the folder, its text beside it; a `ScenarioError` naming the file says what is wrong. */
export function readFolderScenario(fs: FolderFileSystem, path: string, name: string): { scenario: CheckedScenario; text: string } {
  if (!SCENARIO_NAME.test(name))
    throw new ScenarioError(
      path,
      'the file name must be a scenario name and .json: 1 to 64 lower-case letters, digits and dashes, such as qa-big.json',
    )
  if (isBuiltinScenarioName(name))
    throw new ScenarioError(
      path,
      `"${name}" is the name of a built-in scenario, which a file of the folder cannot replace; rename the file`,
    )
  let text: string
  try {
    const { size } = fs.statSync(path)
    if (size > MAX_FOLDER_FILE_BYTES)
      throw new ScenarioError(
        path,
        `the file is ${size} bytes; a scenario file of the folder may be at most ${MAX_FOLDER_FILE_BYTES} bytes`,
      )
    text = fs.readFileSync(path, 'utf8')
    // It may have grown since the stat.
    if (text.length > MAX_FOLDER_FILE_BYTES)
      throw new ScenarioError(path, `the file is over ${MAX_FOLDER_FILE_BYTES} bytes, the most a scenario file of the folder may be`)
  } catch (error) {
    if (isScenarioError(error)) throw error
    throw new ScenarioError(path, `the file cannot be read (${systemErrorCode(error) ?? String(error)})`)
  }
  const value = parseScenarioJson(text, path)
  if (isPlainObject(value)) {
    if (value['name'] === undefined)
      Object.defineProperty(value, 'name', { value: name, enumerable: true, writable: true, configurable: true })
    else if (value['name'] !== name)
      throw new ScenarioError(
        path,
        `its "name" is ${describe(value['name'])}, but the file ${name}.json names it "${name}"; make them the same (or leave "name" out)`,
        'name',
      )
  }
  return { scenario: parseScenario(value, path), text }
}
