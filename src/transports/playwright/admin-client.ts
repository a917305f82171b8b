import { parseExactJson, stringifyExactJson } from '../../core/exact-json.js'
import { SESSION_HEADER } from '../../core/simulator/sessions.js'

/** Longer than any latency a test sets on purpose, short enough that a stuck server fails the test with a reason. */
const ADMIN_TIMEOUT_MS = 15_000

/** One admin call of a session: `call('POST', '/reset', { scenario })`, the parsed JSON answer (int64 ids exact), or null for none. */
export type AdminCall = (method: string, path: string, body?: unknown) => Promise<unknown>

/** The one line a test fails with when nothing answers at the simulator's address. */
function unreachable(origin: string, cause: unknown): Error {
  const code = (cause as { cause?: { code?: unknown } } | undefined)?.cause?.code
  const port = new URL(origin).port || '80'
  const error = new Error(
    `No simulator answers at ${origin}${typeof code === 'string' ? ` (${code})` : ''}: start one before the tests, with ` +
      `webServer: { command: 'npx petstore-sim --port ${port}', url: '${origin}/__sim' } in playwright.config.ts, ` +
      `or set simulatorUrl to where yours listens, or use simulatorMode: 'route' to need no server.`,
  )
  // A setup to fix, not a bug to trace: the report shows this line alone, without our stack and source.
  error.stack = `Error: ${error.message}`
  return error
}

/** Why an answer is refused, from its Error body when it has one. */
function refusal(origin: string, method: string, path: string, status: number, text: string): Error {
  let message: string | undefined
  try {
    const body = JSON.parse(text) as { message?: unknown }
    if (typeof body.message === 'string') message = body.message
  } catch {
    // Not JSON: not the simulator's admin API, said below.
  }
  if (status === 401)
    return new Error(
      `The simulator at ${origin} requires its admin token: set simulatorAdminToken in test.use() or PETSTORE_SIM_ADMIN_TOKEN. (${message ?? status})`,
    )
  if (message === undefined || status === 404)
    return new Error(
      `${origin} answered ${method} /__sim${path} with ${status}${message === undefined ? '' : ` (${message})`}: ` +
        `is it petstore-sim with its admin API on (no --no-admin)?`,
    )
  return new Error(`The simulator at ${origin} refused ${method} /__sim${path}: ${message}`)
}

/** Admin calls acting on one session of the simulator at `origin`. */
export function adminClient(origin: string, session: string, token: string | undefined): AdminCall {
  const headers: Record<string, string> = { [SESSION_HEADER]: session, 'Content-Type': 'application/json' }
  if (token !== undefined) headers['Authorization'] = `Bearer ${token}`
  return async (method, path, body) => {
    let response: Response
    try {
      response = await fetch(`${origin}/__sim${path}`, {
        method,
        headers,
        body: body === undefined ? null : stringifyExactJson(body),
        signal: AbortSignal.timeout(ADMIN_TIMEOUT_MS),
      })
    } catch (error) {
      if (error instanceof DOMException && error.name === 'TimeoutError')
        throw new Error(`The simulator at ${origin} did not answer ${method} /__sim${path} within ${ADMIN_TIMEOUT_MS / 1000} s.`)
      throw unreachable(origin, error)
    }
    const text = await response.text()
    if (!response.ok) throw refusal(origin, method, path, response.status, text)
    return text === '' ? null : parseExactJson(text)
  }
}
