/**
 * A scenario that cannot be loaded: unreadable, not JSON, or not a valid
 * scenario. The message names the scenario (its file or name) and, where
 * there is one, the field at fault.
 */
export class ScenarioError extends Error {
  override name = 'ScenarioError'

  constructor(
    /** The file path or name of the scenario. */
    readonly source: string,
    /** What is wrong, e.g. `orders[2].id must be an integer`. */
    readonly problem: string,
    /** The field at fault, e.g. `orders[2].id`, when there is one. */
    readonly field?: string,
    /** The line of the file where its JSON stops parsing, when that is the problem. */
    readonly line?: number,
  ) {
    super(`Failed to load scenario "${source}": ${problem}.`)
  }
}

/** Type guard that also works across copies of this package (where `instanceof` fails). */
export function isScenarioError(error: unknown): error is ScenarioError {
  return error instanceof Error && error.name === 'ScenarioError' && 'source' in error && 'problem' in error
}
