import { ApiError, invalidRequest } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { BUILTIN_SCENARIOS } from '../scenario/builtin-scenarios.js'
import type { Scenario } from '../scenario/scenario.js'
import type { ScenarioFolder } from '../platform.js'
import type { LoadedScenario, ResetRequest } from '../simulator/types.js'
import { quote } from '../quote-value.js'

export interface AvailableScenario {
  name: string
  description: string
  /** Built in, the file the server started with, or a file of the scenarios folder. */
  source: 'builtin' | 'file' | 'folder'
  /** What `reset` loads: a built-in or folder name, or the path of the file the server started with. */
  load: string | Scenario
  /** A folder file's name, and why it does not load (with its line), or null. */
  folder?: { file: string; error: string | null; line: number | null }
}

/** The scenarios a reset may name, by name. */
export type ScenarioCatalog = ReadonlyMap<string, AvailableScenario>

/** What the admin calls know of the scenarios: the one the server started with, its scenarios folder, and what a reset may name. */
export interface ScenarioSource {
  started: LoadedScenario
  folder: ScenarioFolder | undefined
  /** Looked up anew for each call: the folder changes under a running server. */
  available(): ScenarioCatalog
}

export const scenarioSource = (started: LoadedScenario, folder: ScenarioFolder | undefined): ScenarioSource => ({
  started,
  folder,
  available: () => availableScenarios(started, folder),
})

/**
 * The scenarios a caller may name over HTTP, looked up anew for each call:
 * the built-in ones, the files of the scenarios folder, and the one the
 * server started with when that came from a file (unless a folder file has
 * its name). Names only: a path given over HTTP is never read.
 */
function availableScenarios(started: LoadedScenario, folder: ScenarioFolder | undefined): ScenarioCatalog {
  const available = new Map<string, AvailableScenario>()
  for (const [name, raw] of Object.entries(BUILTIN_SCENARIOS)) {
    available.set(name, { name, description: (raw as Scenario).description ?? '', source: 'builtin', load: name })
  }
  if (started.source !== started.name && !available.has(started.name)) {
    // Loaded from a file: its name reloads it from that file, so an edited file is picked up.
    const { name, description, source } = started
    available.set(name, { name, description, source: 'file', load: source })
  }
  for (const { name, description, file, error, line } of folder?.list() ?? []) {
    // A file named like a built-in one is listed apart by its file name: it is refused, not offered.
    const key = available.get(name)?.source === 'builtin' ? file : name
    available.set(key, { name, description, source: 'folder', load: name, folder: { file, error, line } })
  }
  return available
}

/** A scenario as `GET /__sim/scenarios` lists it: a folder's says so, with its file and error. */
export function scenarioSummary({ name, description, source, folder }: AvailableScenario, current: string): object {
  if (folder === undefined) return { name, description, builtin: source === 'builtin', current: name === current }
  return { name, description, builtin: false, current: folder.error === null && name === current, source: 'folder', ...folder }
}

/** Reads the body of `POST /__sim/reset` into what `reset` takes. */
export function readResetRequest(body: Record<string, unknown>, available: ScenarioCatalog): ResetRequest {
  const names = [...available.values()]
    .filter((scenario) => scenario.folder?.error == null)
    .map(({ name }) => name)
    .join(', ')
  const unknown = Object.keys(body).filter((key) => key !== 'scenario' && key !== 'seed')
  if (unknown.length > 0) {
    throw invalidRequest(
      `Unknown field ${unknown.map((key) => quote(key)).join(', ')}; a reset takes "scenario" (a name) and "seed" (a whole number).`,
    )
  }
  const { scenario, seed } = body
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)) {
    throw invalidRequest(`"seed" must be a whole number of 0 or more, got ${quote(seed)}.`)
  }
  if (scenario !== undefined && typeof scenario !== 'string') {
    throw invalidRequest(`"scenario" must be a scenario name, got ${quote(scenario)}. The available scenarios are ${names}.`)
  }
  const target = scenario === undefined ? undefined : available.get(scenario)
  if (scenario !== undefined && (target === undefined || target.name !== scenario)) {
    const message = `Unknown scenario ${quote(scenario)}: over HTTP a scenario is named, never a path. The available scenarios are ${names}.`
    throw new ApiError(400, ErrorCode.UnknownScenario, message)
  }
  return { scenario: target?.load, seed: seed as number | undefined }
}

/** The 409 of a scenario file that does not load now (edited since it was listed or the server started). */
export function scenarioFileInvalid(error: { source: string; problem: string }, started: LoadedScenario): ApiError {
  const which = error.source === started.source ? 'this server started with' : 'of the scenarios folder'
  const message =
    `The scenario file ${which}, ${quote(error.source)}, no longer loads: ${error.problem}. ` +
    'Fix the file and try again; the orders are as they were.'
  return new ApiError(409, ErrorCode.ScenarioFileInvalid, message)
}
