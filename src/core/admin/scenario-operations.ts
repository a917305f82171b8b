// The scenarios a reset may name, and the scenarios as files: saved in the scenarios folder, read, exported.
import { ApiError, invalidRequest } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { stringifyExactJson } from '../exact-json.js'
import { quote } from '../quote-value.js'
import { BUILTIN_SCENARIOS } from '../scenario/builtin-scenarios.js'
import { readScenarioFile } from '../scenario/scenario-file.js'
import { isScenarioError } from '../scenario/scenario-error.js'
import type { SavedScenario, SaveOptions } from '../simulator/scenario-export.js'
import { objectBody, onlyFields } from './admin-input.js'
import { operation } from './admin-operation.js'
import { type AvailableScenario, type ScenarioSource, scenarioFileInvalid, scenarioSummary } from './scenario-catalog.js'

const FILE_ANSWER = {
  description: 'The scenario file.',
  schema: 'ScenarioFile',
  headers: { 'Content-Disposition': 'ContentDisposition' },
} as const
const SAVED_LOCATION = {
  description: 'Where the file can be read: /__sim/scenarios/{name}.',
  pattern: '^/__sim/scenarios/[a-z0-9][a-z0-9-]{0,63}$',
}
const SAVED = { schema: 'ScenarioSummary', headers: { Location: SAVED_LOCATION } } as const

/** A scenario file as a download: the name to save it under. */
const download = ({ name }: { name: string }) => ({ 'Content-Disposition': `attachment; filename="${name}.json"` })

/** The text of a scenario by name, as its file has it, checked first: a file that no longer loads is a 409. */
function scenarioText(scenario: AvailableScenario, { folder, started }: ScenarioSource): string {
  if (scenario.source === 'builtin')
    return `${JSON.stringify(BUILTIN_SCENARIOS[scenario.name as keyof typeof BUILTIN_SCENARIOS], null, 2)}\n`
  try {
    if (scenario.source === 'file') return readScenarioFile(scenario.load as string).text
    const loaded = folder?.load(scenario.name)
    if (loaded === undefined) throw new ApiError(404, ErrorCode.NotFound, `The scenarios folder no longer has ${scenario.name}.json.`)
    return loaded.text
  } catch (error) {
    throw isScenarioError(error) ? scenarioFileInvalid(error, started) : error
  }
}

export const SCENARIO_OPERATIONS = {
  listScenarios: operation({
    method: 'GET',
    path: '/scenarios',
    tag: 'state',
    summary: 'List the scenarios a reset may name',
    description:
      'The built-in scenarios, the file the server started with (by its name), and every *.json file of the scenarios folder (--scenarios-dir), looked at anew for each call: one that does not load is listed with its error (and line), and is not offered.',
    status: 200,
    answer: { description: 'The scenarios; `current` marks the one loaded in this state.', schema: 'ScenarioSummary[]' },
    run: ({ view, scenarios }) => {
      const current = view.scenario().name
      return [...scenarios.available().values()].map((scenario) => scenarioSummary(scenario, current))
    },
  }),
  saveScenario: operation({
    method: 'POST',
    path: '/scenarios',
    tag: 'state',
    summary: 'Save this state as a scenario file of the scenarios folder',
    description:
      'Writes the state of this session (or the simulator\'s own) as <name>.json in the scenarios folder: its orders as they are now, keys, switches, latency, faults, rate limit and lifecycle. The file loads back to the same state (POST /__sim/reset {"scenario": "<name>"}, in every session) and scenario.schema.json accepts it. Written whole or not at all (a temporary file in the folder, then renamed); saves of one name run one after the other.',
    body: { schema: 'SaveScenarioRequest', required: true, hint: 'Send {"name": "qa-big", "description"?: "...", "overwrite"?: true}.' },
    status: 201,
    answer: { description: 'Saved as a new file.', ...SAVED },
    others: { 200: { description: 'Saved over a file of that name (overwrite).', ...SAVED } },
    errors: {
      400: 'invalid_request: the body is not a JSON object of name, description and overwrite, the name is not 1 to 64 lower-case letters, digits and dashes (a slash, dots, 65 characters or more), or the X-Sim-Session header is not a session id. Nothing was written.',
      409: "scenario_exists (a file of that name is there and overwrite is not true, or the name is a built-in scenario's), scenarios_dir_unavailable (the server has no scenarios folder, or it is read-only, not writable, gone, out of space or holds 1000 files already) or scenario_too_large (the file would be over 4 MiB). Nothing was written.",
    },
    run: async ({ view, scenarios, body }) => {
      const fields = objectBody(body)
      onlyFields(fields, ['name', 'description', 'overwrite'], 'a save')
      const { name, description, overwrite } = fields
      if (name === undefined)
        throw invalidRequest('A save needs "name", the scenario name, such as "qa-big" (1 to 64 lower-case letters, digits and dashes).')
      const options = { ...(description === undefined ? {} : { description }), ...(overwrite === undefined ? {} : { overwrite }) }
      const saved = await view.saveScenario(name as string, options as SaveOptions)
      const listed = scenarios.available().get(saved.name)
      const folder = { file: `${saved.name}.json`, error: null, line: null }
      const entry = listed ?? { name: saved.name, description: '', source: 'folder', load: saved.name, folder }
      return { saved, summary: scenarioSummary(entry, view.scenario().name) }
    },
    statusOf: ({ saved }: { saved: SavedScenario }) => (saved.overwritten ? 200 : 201),
    headers: ({ saved }: { saved: SavedScenario }) => ({ Location: `/__sim/scenarios/${saved.name}` }),
    text: ({ summary }: { summary: object }) => stringifyExactJson(summary),
  }),
  getScenarioFile: operation({
    method: 'GET',
    path: '/scenarios/{name}',
    tag: 'state',
    summary: 'A scenario as its file',
    description:
      "Any scenario a reset may name, built-in or from a file, as its JSON file (the text of the file itself for a folder's or the startup file's), with Content-Disposition naming <name>.json.",
    params: { name: { schema: 'Text', description: 'A name GET /__sim/scenarios lists.' } },
    status: 200,
    answer: FILE_ANSWER,
    errors: {
      404: 'not_found: no scenario has that name.',
      409: 'scenario_file_invalid: the file (of the folder, or the one the server started with) does not load now.',
    },
    run: ({ params, scenarios }) => {
      const name = params['name'] ?? ''
      const scenario = scenarios.available().get(name)
      if (scenario === undefined || scenario.name !== name)
        throw new ApiError(404, ErrorCode.NotFound, `No scenario is named ${quote(name)}; GET /__sim/scenarios lists them.`)
      return { name, text: scenarioText(scenario, scenarios) }
    },
    headers: download,
    text: ({ text }: { text: string }) => text.replace(/^\uFEFF/, ''),
  }),
  exportScenario: operation({
    method: 'GET',
    path: '/export',
    tag: 'state',
    summary: 'This state as a scenario file, not saved',
    description:
      "What POST /__sim/scenarios would write, without a scenarios folder: the state of this session (or the simulator's own) as a scenario file that loads back to it, for a download.",
    query: {
      name: { schema: 'ScenarioName', description: "The scenario's name. Default: the name of the scenario loaded now." },
      description: { schema: 'Text', description: "Its line for people. Default: the loaded scenario's." },
    },
    status: 200,
    answer: FILE_ANSWER,
    errors: {
      400: 'invalid_request: a name that is not a scenario name, an unknown or repeated query field, or a bad X-Sim-Session header.',
    },
    run: ({ view, query }) => {
      onlyFields(query, ['name', 'description'], 'an export')
      return view.exportScenario(query)
    },
    headers: download,
    text: (scenario: unknown) => `${stringifyExactJson(scenario, 2)}\n`,
  }),
}
