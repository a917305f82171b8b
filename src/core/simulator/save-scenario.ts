import { ApiError } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { stringifyExactJson } from '../exact-json.js'
import { quote } from '../quote-value.js'
import { isBuiltinScenarioName } from '../scenario/load-scenario.js'
import type { ScenarioFolder } from '../platform.js'
import { ValidationError } from '../validation-error.js'
import { checkScenarioName, exportScenario } from './export-scenario.js'
import type { SimulatorInstance } from './instance.js'
import type { SavedScenario, SaveOptions } from './scenario-export.js'

/** Saves the state of `instance` in `folder` as `name` (see `ScenarioExport.saveScenario` in scenario-export.ts). */
export async function saveScenario(
  instance: SimulatorInstance,
  folder: ScenarioFolder | undefined,
  name: unknown,
  options: SaveOptions = {},
): Promise<SavedScenario> {
  const checked = checkScenarioName(name)
  const { overwrite = false, description } = options
  if (typeof overwrite !== 'boolean') throw new ValidationError('overwrite', `"overwrite" is true or false, got ${quote(overwrite)}.`)
  if (isBuiltinScenarioName(checked))
    throw new ApiError(
      409,
      ErrorCode.ScenarioExists,
      `"${checked}" is the name of a built-in scenario, which a saved scenario cannot replace; pick another name.`,
    )
  if (folder === undefined)
    throw new ApiError(
      409,
      ErrorCode.ScenariosDirUnavailable,
      'This simulator has no scenarios folder to save in: start it with --scenarios-dir <folder> ' +
        '(PETSTORE_SIM_SCENARIOS_DIR, or the scenariosDir option). Nothing was saved.',
    )
  const exported = exportScenario(instance, {
    name: checked,
    description: description ?? `Saved from the state of scenario "${instance.active.scenario.name}".`,
  })
  const { path, overwritten } = await folder.write(checked, `${stringifyExactJson(exported, 2)}\n`, overwrite)
  return { name: checked, path, overwritten }
}
