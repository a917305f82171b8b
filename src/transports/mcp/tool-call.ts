// A tool call made an admin call: the arguments sorted into path, query and body
// as the tool's plan says, the answer's JSON as text, a refusal as a tool error
// carrying the Error body, so that an assistant can read what to correct.
import { AdminError, type AdminClient } from '../../core/admin/admin-client.js'
import { ErrorCode } from '../../core/error-codes.js'
import { stringifyExactJson } from '../../core/exact-json.js'
import { quote } from '../../core/quote-value.js'
import { SESSION_ARGUMENT, type ToolPlan } from './admin-tools.js'

/** What `tools/call` answers: the text of the answer, or of the refusal with `isError`. */
export interface ToolResult {
  [key: string]: unknown
  content: { type: 'text'; text: string }[]
  isError?: true
}

/** The admin API acting on a session's state (the default one for null): in process, or a running server over HTTP. */
export type Connect = (session: string | null) => AdminClient

const text = (value: string): ToolResult['content'] => [{ type: 'text', text: value }]

/** A refusal as the Error body says it: `{ code, message, status }` as JSON text. */
export function refusal(status: number, code: string, message: string): ToolResult {
  return { content: text(JSON.stringify({ code, message, status })), isError: true }
}

class ArgumentError extends Error {}

/** How many unknown arguments a refusal names: an assistant reads every word of it. */
const NAMED_AT_MOST = 5

/**
 * Where a JSON number lost digits before anyone read it (an integer past 2^53, or one too large to be finite),
 * by the argument's path; undefined when none did. A bigint (HTTP's exact reading) is whole.
 */
function lostDigits(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)) ? undefined : path
  if (typeof value !== 'object' || value === null || depth > 32) return undefined
  for (const [key, each] of Object.entries(value)) {
    const found = lostDigits(each, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/** A path parameter or a query field as the URL carries it: a string, a number or a boolean, nothing else. */
function scalar(tool: string, name: string, value: unknown): string | number | bigint {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return value
  if (typeof value === 'boolean') return String(value)
  throw new ArgumentError(`The argument "${name}" of ${tool} must be a string, a number or a boolean, got ${quote(value)}.`)
}

/** The admin client's input for a call: the path's parameters by name, its query and its body. */
function inputOf(plan: ToolPlan, args: Record<string, unknown>): Record<string, unknown> {
  const { body } = plan
  const fromBody = body.from === 'fields' ? body.fields : body.from === 'argument' ? [body.argument] : []
  const known = [...plan.params, ...plan.query, ...fromBody, SESSION_ARGUMENT]
  const unknown = Object.keys(args).filter((name) => !known.includes(name))
  if (unknown.length > 0) {
    const named = unknown.slice(0, NAMED_AT_MOST).map((name) => quote(name))
    const more = unknown.length > NAMED_AT_MOST ? ` and ${unknown.length - NAMED_AT_MOST} more` : ''
    throw new ArgumentError(
      `Unknown argument ${named.join(', ')}${more}: ${plan.name} takes ${known.map((name) => `"${name}"`).join(', ')}.`,
    )
  }
  for (const [name, value] of Object.entries(args)) {
    const lost = lostDigits(value, name)
    if (lost !== undefined)
      throw new ArgumentError(
        `The argument ${quote(lost)} is a number past 2^53, which JSON numbers do not hold exactly: give it as a decimal string ("9007199254740993").`,
      )
  }
  const input: Record<string, unknown> = {}
  for (const name of plan.params) {
    if (args[name] === undefined) throw new ArgumentError(`${plan.name} needs the argument "${name}".`)
    input[name] = scalar(plan.name, name, args[name])
  }
  const query: Record<string, unknown> = {}
  for (const name of plan.query) if (args[name] !== undefined) query[name] = scalar(plan.name, name, args[name])
  if (plan.query.length > 0) input['query'] = query
  if (body.from === 'argument' && args[body.argument] !== undefined) input['body'] = args[body.argument]
  if (body.from === 'fields') {
    const given = body.fields.filter((name) => args[name] !== undefined)
    if (given.length > 0 || body.required) input['body'] = Object.fromEntries(given.map((name) => [name, args[name]]))
  }
  return input
}

/** The session a call acts on: its `session` argument, else the connection's own (the X-Sim-Session of an HTTP call). */
function sessionOf(args: Record<string, unknown>, fallback: string | null): string | null {
  const session = args[SESSION_ARGUMENT]
  if (session === undefined) return fallback
  if (typeof session !== 'string') throw new ArgumentError(`The argument "session" must be a string, got ${quote(session)}.`)
  // As given, '' too: the state's own check refuses an id the X-Sim-Session header could not carry, naming it.
  return session
}

/**
 * Runs a tool: its admin call on the session's state. A bad argument or a
 * refused call is a tool error with the Error body; anything else that fails
 * is the simulator's own failure, and throws.
 */
export async function callTool(
  plan: ToolPlan,
  connect: Connect,
  args: Record<string, unknown> | undefined,
  session: string | null = null,
): Promise<ToolResult> {
  try {
    const given = args ?? {}
    const input = inputOf(plan, given)
    const call = connect(sessionOf(given, session))[plan.name as keyof AdminClient] as (input: unknown) => Promise<unknown>
    const answer = await call(input)
    return { content: text(answer === undefined ? 'Done (204 No Content).' : stringifyExactJson(answer)) }
  } catch (error) {
    if (error instanceof ArgumentError) return refusal(400, ErrorCode.InvalidRequest, error.message)
    if (error instanceof AdminError) return refusal(error.status, error.code, error.message)
    throw error
  }
}
