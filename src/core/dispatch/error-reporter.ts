/** Tells someone about an error that a request met and that was answered 500 `internal_error` without details. */
export type ErrorReporter = (error: unknown, request: { readonly method: string; readonly target: string } | string) => void

/** How much of a request's target the console line repeats: the target itself is bounded only by the header limit. */
const TARGET_SHOWN = 200

/**
 * The reporter of a simulator: its `onError` option, else the console. The
 * client's 500 body never carries the stack, so this is where it goes; one
 * report per failed request.
 */
export function errorReporter(onError: ((error: unknown) => void) | undefined): ErrorReporter {
  return (error, request) => {
    if (onError !== undefined) {
      try {
        onError(error)
        return
      } catch (failure) {
        console.error('petstore-orders-simulator: the onError option threw while reporting the error below:', failure)
      }
    }
    // Not a request: something the simulator did on its own (a scheduled ship).
    if (typeof request === 'string') {
      console.error(
        `petstore-orders-simulator: ${request} failed. This is a bug of the simulator or a problem of where it runs; the error:`,
        error,
      )
      return
    }
    const target = request.target.length > TARGET_SHOWN ? `${request.target.slice(0, TARGET_SHOWN)}…` : request.target
    console.error(
      `petstore-orders-simulator: ${request.method} ${target} failed inside the simulator and was answered 500 internal_error. ` +
        'This is a bug of the simulator or a problem of where it runs; the error:',
      error,
    )
  }
}
