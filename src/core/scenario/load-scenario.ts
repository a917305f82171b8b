import { BUILTIN_SCENARIOS, type BuiltinScenarioName } from './builtin-scenarios.js'
import { parseScenario, type CheckedScenario } from './parse-scenario.js'
import type { Scenario } from './scenario.js'
import { ScenarioError } from './scenario-error.js'

export function isBuiltinScenarioName(name: string): name is BuiltinScenarioName {
  return Object.hasOwn(BUILTIN_SCENARIOS, name)
}

/** A string that names a file rather than a built-in scenario. */
export function looksLikePath(text: string): boolean {
  return /[/\\]/.test(text) || /\.json$/i.test(text)
}

/**
 * Resolves a scenario given by built-in name, by file path or as an object,
 * and checks it. Throws a `ScenarioError` for anything invalid. A path is
 * read by `loadFile`, which only Node.js callers pass (`loadScenarioFile`):
 * a page cannot read a file, and so does not load the file reader's code.
 */
export function resolveScenario(
  input: string | Scenario,
  loadFile?: (path: string) => CheckedScenario,
): { scenario: CheckedScenario; source: string } {
  if (typeof input !== 'string') {
    const source = typeof input === 'object' && input !== null && typeof input.name === 'string' ? input.name : '(inline scenario)'
    return { scenario: parseScenario(input, source), source }
  }
  if (isBuiltinScenarioName(input)) {
    return { scenario: parseScenario(BUILTIN_SCENARIOS[input], input), source: input }
  }
  if (looksLikePath(input)) {
    if (loadFile === undefined) {
      throw new ScenarioError(input, 'scenario files can be read by path only in Node.js; pass the scenario object itself instead')
    }
    return { scenario: loadFile(input), source: input }
  }
  throw new ScenarioError(
    input,
    `no built-in scenario has this name; the built-in scenarios are ${Object.keys(BUILTIN_SCENARIOS).join(', ')} ` +
      `(give a path such as ./my-scenario.json to load your own file)`,
  )
}
