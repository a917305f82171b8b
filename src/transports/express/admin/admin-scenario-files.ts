import { readFileSync } from 'node:fs'
import type { Response as ExpressResponse, Router } from 'express'
import { ApiError, invalidRequest } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { stringifyExactJson } from '../../../core/exact-json.js'
import { quote } from '../../../core/quote-value.js'
import { BUILTIN_SCENARIOS } from '../../../core/scenario/builtin-scenarios.js'
import { loadScenarioFile } from '../../../core/scenario/load-scenario.js'
import { isScenarioError } from '../../../core/scenario/scenario-error.js'
import type { ScenarioFolder } from '../../../core/scenario/scenario-folder.js'
import type { SaveOptions } from '../../../core/simulator/scenario-export.js'
import type { LoadedScenario } from '../../../core/simulator/types.js'
import { action } from './admin-action.js'
import { readJsonObject, readQuery, sendJson } from './admin-json.js'
import { type AvailableScenario, scenarioFileInvalid, scenarioSummary } from './admin-scenarios.js'

/** Only these fields: a typo such as "overwite" must not save over nothing, silently. */
function onlyFields(record: Record<string, unknown>, fields: readonly string[], what: string): void {
  const unknown = Object.keys(record).filter((key) => !fields.includes(key))
  if (unknown.length > 0)
    throw invalidRequest(
      `Unknown field ${unknown.map((key) => quote(key)).join(', ')}; ${what} takes ${fields.map((field) => `"${field}"`).join(', ')}.`,
    )
}

/** A scenario file as a download: its JSON, and the name to save it under. */
function sendScenarioFile(res: ExpressResponse, name: string, text: string): void {
  res
    .status(200)
    .type('application/json')
    .set('Content-Disposition', `attachment; filename="${name}.json"`)
    .send(text.replace(/^\uFEFF/, ''))
}

/** The text of a scenario by name, as its file has it, checked first: a file that no longer loads is a 409. */
function scenarioText(scenario: AvailableScenario, folder: ScenarioFolder | undefined, started: LoadedScenario): string {
  if (scenario.source === 'builtin')
    return `${JSON.stringify(BUILTIN_SCENARIOS[scenario.name as keyof typeof BUILTIN_SCENARIOS], null, 2)}\n`
  try {
    if (scenario.source === 'folder') {
      const loaded = folder?.load(scenario.name)
      if (loaded === undefined) throw new ApiError(404, ErrorCode.NotFound, `The scenarios folder no longer has ${scenario.name}.json.`)
      return loaded.text
    }
    const path = scenario.load as string
    loadScenarioFile(path)
    return readFileSync(path, 'utf8')
  } catch (error) {
    throw isScenarioError(error) ? scenarioFileInvalid(error, started) : error
  }
}

/**
 * The scenarios as files: `POST /scenarios` saves this state in the
 * scenarios folder, `GET /scenarios/:name` gives any scenario's file, and
 * `GET /export` this state as a scenario file without saving it.
 */
export function addScenarioFileRoutes(
  router: Router,
  available: () => Map<string, AvailableScenario>,
  { folder, startedWith }: { folder: ScenarioFolder | undefined; startedWith: LoadedScenario },
): void {
  router.post(
    '/scenarios',
    action(async (req, res, view) => {
      const body = readJsonObject(req)
      onlyFields(body, ['name', 'description', 'overwrite'], 'a save')
      const { name, description, overwrite } = body
      if (name === undefined)
        throw invalidRequest('A save needs "name", the scenario name, such as "qa-big" (1 to 64 lower-case letters, digits and dashes).')
      const options = { ...(description === undefined ? {} : { description }), ...(overwrite === undefined ? {} : { overwrite }) }
      const saved = await view.saveScenario(name as string, options as SaveOptions)
      const listed = available().get(saved.name)
      res.location(`/__sim/scenarios/${saved.name}`)
      const entry = listed ?? {
        name: saved.name,
        description: '',
        builtin: false,
        source: 'folder' as const,
        load: saved.name,
        folder: { file: `${saved.name}.json`, error: null, line: null },
      }
      sendJson(res, saved.overwritten ? 200 : 201, scenarioSummary(entry, view.scenario().name))
    }),
  )
  router.get(
    '/scenarios/:name',
    action((req, res) => {
      const name = String(req.params['name'] ?? '')
      const scenario = available().get(name)
      if (scenario === undefined || scenario.name !== name)
        throw new ApiError(404, ErrorCode.NotFound, `No scenario is named ${quote(name)}; GET /__sim/scenarios lists them.`)
      sendScenarioFile(res, name, scenarioText(scenario, folder, startedWith))
    }),
  )
  router.get(
    '/export',
    action((req, res, view) => {
      const query = readQuery(req.originalUrl)
      onlyFields(query, ['name', 'description'], 'an export')
      const scenario = view.exportScenario(query)
      sendScenarioFile(res, scenario.name, `${stringifyExactJson(scenario, 2)}\n`)
    }),
  )
}
