import { AdminError, type AdminClient, clientOf, httpSend } from '../../core/admin/admin-client.js'

/** Longer than any latency a test sets on purpose, short enough that a stuck server fails the test with a reason. */
const ADMIN_TIMEOUT_MS = 15_000

/**
 * A call the simulator never took: nothing answers, a token is missing, this
 * is not the simulator. Unlike a refusal, it opened no session to end.
 */
export class SetupProblem extends Error {}

/** Why a call failed, as the test's setup problem it is: nothing answers, a token is missing, this is not the simulator. */
function explain(origin: string, call: string, error: unknown): Error {
  if (error instanceof AdminError && error.status !== 401 && error.status !== 404 && error.code !== '')
    return new Error(`The simulator at ${origin} refused ${call}: ${error.message}`)
  let message: string
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    message = `The simulator at ${origin} did not answer ${call} within ${ADMIN_TIMEOUT_MS / 1000} s.`
  } else if (!(error instanceof AdminError)) {
    const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code
    message =
      `No simulator answers at ${origin}${typeof code === 'string' ? ` (${code})` : ''}: start one before the tests, with ` +
      `webServer: { command: 'npx petstore-sim --port ${new URL(origin).port || '80'}', url: '${origin}/__sim' } in playwright.config.ts, ` +
      `or set simulatorUrl to where yours listens, or use simulatorMode: 'route' to need no server.`
  } else if (error.status === 401) {
    const why = error.code === '' ? error.status : error.message
    message = `The simulator at ${origin} requires its admin token: set simulatorAdminToken in test.use() or PETSTORE_SIM_ADMIN_TOKEN. (${why})`
  } else {
    const why = error.code === '' ? '' : ` (${error.message})`
    message = `${origin} answered ${call} with ${error.status}${why}: is it petstore-sim with its admin API on (no --no-admin)?`
  }
  const explained = new SetupProblem(message)
  // A setup to fix, not a bug to trace: the report shows this line alone, without our stack and source.
  explained.stack = `Error: ${message}`
  return explained
}

/** The admin client of one session of the simulator at `origin`, each failure told as the test's setup problem it is. */
export function fixtureAdminClient(origin: string, session: string, token: string | undefined): AdminClient {
  const send = httpSend(origin, { session, token, timeoutMs: ADMIN_TIMEOUT_MS })
  return clientOf((call) =>
    send(call).catch((error: unknown) => {
      const path = call.operation.path.replace(/\{(\w+)\}/g, (_, name: string) => call.params[name] ?? '')
      throw explain(origin, `${call.operation.method} /__sim${path}`, error)
    }),
  )
}

/** What went wrong with a call, in a few words: the server's refusal, no answer in time, or the network's error code. */
function reason(error: unknown): string {
  if (error instanceof AdminError) return `${error.status}${error.code === '' ? '' : ` ${error.code}`}: ${error.message}`
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${ADMIN_TIMEOUT_MS / 1000} s`
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code
  return typeof code === 'string' ? code : String(error)
}

/**
 * Ends `session` at `origin`; also resolves when it is already gone (dropped
 * when idle, or the server restarted). Throws an Error saying why it could not.
 */
export async function endFixtureSession(origin: string, session: string, token: string | undefined): Promise<void> {
  // Without X-Sim-Session: naming the session would reopen one the server has dropped, or be refused when it is full.
  const admin = clientOf(httpSend(origin, { token, timeoutMs: ADMIN_TIMEOUT_MS }))
  try {
    await admin.endSession({ sessionId: session })
  } catch (error) {
    if (error instanceof AdminError && error.status === 404) return
    throw new Error(`Failed to end the test's session ${session} at ${origin} (${reason(error)}).`)
  }
}
