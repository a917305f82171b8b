/**
 * An input the simulator cannot use (an option, a control, a session id),
 * told without any transport in mind. Each edge maps it once: the admin API
 * to a 400, the in-process API to a `TypeError`, a scenario file to a
 * `ScenarioError`, the CLI to a usage line.
 */
export class ValidationError extends Error {
  override name = 'ValidationError'

  constructor(
    /** The input at fault, such as `latency.cancelOrder` or `sessions.max`. */
    readonly field: string,
    message: string,
  ) {
    super(message)
  }
}

/** Runs `read`, handing a `ValidationError` it throws to `fail`, the edge's mapping. */
export function mapValidation<T>(read: () => T, fail: (error: ValidationError) => never): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof ValidationError) fail(error)
    throw error
  }
}
