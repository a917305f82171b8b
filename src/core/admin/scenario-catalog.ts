import { ApiError, invalidRequest } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { BUILTIN_SCENARIOS } from '../scenario/builtin-scenarios.js'
import type { Scenario } from '../scenario/scenario.js'
import type { LoadedScenario, ResetRequest } from '../simulator/types.js'
import { quote } from '../quote-value.js'

interface AvailableScenario {
  name: string
  description: string
  builtin: boolean
  /** What `reset` loads: a built-in name, or the path of the file the server started with. */
  load: string | Scenario
}

/** The scenarios a reset may name, by name. */
export type ScenarioCatalog = ReadonlyMap<string, AvailableScenario>

/**
 * The scenarios a caller may name over HTTP: the built-in ones, plus the one
 * the server started with when that came from a file. Names only: a path
 * given over HTTP is never read.
 */
export function availableScenarios(started: LoadedScenario): ScenarioCatalog {
  const available = new Map<string, AvailableScenario>()
  for (const [name, raw] of Object.entries(BUILTIN_SCENARIOS)) {
    available.set(name, { name, description: (raw as Scenario).description ?? '', builtin: true, load: name })
  }
  if (started.source !== started.name) {
    // Loaded from a file: its name reloads it from that file, so an edited file is picked up.
    available.set(started.name, { name: started.name, description: started.description, builtin: false, load: started.source })
  }
  return available
}

/** Reads the body of `POST /__sim/reset` into what `reset` takes. */
export function readResetRequest(body: Record<string, unknown>, available: ScenarioCatalog): ResetRequest {
  const names = [...available.keys()].join(', ')
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
  if (scenario !== undefined && target === undefined) {
    const message =
      `Unknown scenario ${quote(scenario)}: over HTTP a scenario is named, never a path. ` + `The available scenarios are ${names}.`
    throw new ApiError(400, ErrorCode.UnknownScenario, message)
  }
  return { scenario: target?.load, seed: seed as number | undefined }
}
