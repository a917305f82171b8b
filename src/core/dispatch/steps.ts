import { ApiError, payloadTooLarge } from '../api-error.js'
import { assertAuthorized } from '../bearer-auth.js'
import { faultError, type Fault } from '../controls/faults.js'
import { ErrorCode } from '../error-codes.js'
import type { OperationCall } from '../operations/operation.js'
import { preferredStatus } from '../operations/prefer.js'
import { describeOperations } from '../operations/registry.js'
import type { Operation } from '../operations/routing.js'
import { quote } from '../quote-value.js'
import type { Reply } from '../reply.js'
import { queryOf } from '../routes/route-path.js'
import { type HeldRoute, OPERATION_TABLE, routeReply } from '../routes/route-table.js'
import type { TimeSource } from '../time-source.js'
import { NO_HEADERS, type Instance, type RequestContext } from './request-context.js'

// The dispatch steps, in the order the dispatcher lists them (dispatcher.ts). Each reads the request's
// context and returns undefined to go on, a reply to answer, or throws the error to answer.

/** The 413 of a body over the limit: a transport limit, so it comes before any rule, as in any HTTP server. */
export function checkBodySize(context: RequestContext): undefined | Promise<undefined> {
  const limit = context.setup.bodyLimit
  const over = context.request.bodyExceeds(limit)
  if (over === false) return undefined
  if (over === true) throw payloadTooLarge(limit)
  return over.then((exceeds) => {
    if (exceeds) throw payloadTooLarge(limit)
    return undefined
  })
}

/** The 400 or 401 of a session that could not be found or made. */
export function refuseBadSession(context: RequestContext): undefined {
  if (context.instance === null) throw context.refusal
  return undefined
}

/** The state a request has reached once `refuseBadSession` let it through. */
function instanceOf(context: RequestContext): Instance {
  return context.instance as Instance
}

/** Waits `ms`, or until the client gives up. */
function sleep(ms: number, signal: AbortSignal | undefined, time: TimeSource): Promise<undefined> {
  return new Promise((resolve) => {
    const timer = time.setTimeout(() => resolve(undefined), ms)
    signal?.addEventListener(
      'abort',
      () => {
        time.clearTimeout(timer)
        resolve(undefined)
      },
      { once: true },
    )
  })
}

/** The operation's latency, drawn from the ranges set; a client that gives up ends it. */
export function waitLatency(context: RequestContext): undefined | Promise<undefined> {
  const delay = instanceOf(context).controls.delayFor((context.operation as Operation).id)
  return delay === 0 ? undefined : sleep(delay, context.request.signal, context.setup.time)
}

const DEFAULT_HANG_MS = 600_000
const DEFAULT_SLOW_BODY_MS = 2000

/** A dropped connection, saying which fault dropped it (a client in process reads it as the fetch error's cause). */
function networkError(fault: Fault, what: string): Reply {
  return { status: 0, headers: {}, body: null, networkError: `Injected fault #${fault.id} (${fault.kind}) on ${fault.operation} ${what}.` }
}

/** A hang: until the client gives up (its abort reaches the request's signal) or durationMs passes, then a dropped connection. */
async function hang(fault: Fault, context: RequestContext): Promise<Reply> {
  const durationMs = fault.durationMs ?? DEFAULT_HANG_MS
  await sleep(durationMs, context.request.signal, context.setup.time)
  return networkError(fault, `held the request ${durationMs} ms, then dropped the connection`)
}

/**
 * The fault that fires for this request, if any: an error, a dropped connection
 * or a hang instead of the answer; a slow or broken body is made of the rules'
 * answer once it is made (`faulted`).
 */
export function injectFault(context: RequestContext): Reply | undefined | Promise<Reply> {
  const fault = instanceOf(context).controls.takeFault((context.operation as Operation).id, context.orderId)
  if (fault === undefined) return undefined
  context.fault = fault
  if (fault.kind === 'status') throw faultError(fault)
  if (fault.kind === 'network') return networkError(fault, 'dropped the connection on purpose')
  if (fault.kind === 'hang') return hang(fault, context)
  return undefined
}

/** The 429 past the key's window, and the RateLimit headers on every answer after it. */
export function limitRate(context: RequestContext): undefined {
  const instance = instanceOf(context)
  const { controls } = instance
  // Nothing is allocated for extra headers when no limit is in play (the common case).
  if (controls.rateLimit() === null) return undefined
  // The bearer token as sent (valid or not): requests are counted per key.
  const token = (context.request.header('Authorization') ?? '').replace(/^bearer\s+/i, '')
  context.extra = controls.consume(token, instance.settings().acceptedKeys.has(token))
  return undefined
}

/** The 401 of a request without an accepted bearer key. */
export function checkKey(context: RequestContext): undefined {
  assertAuthorized(context.request.header('Authorization'), instanceOf(context).settings().acceptedKeys)
  return undefined
}

function callOf(context: RequestContext): OperationCall {
  return { param: context.param, orderId: context.orderId, state: instanceOf(context) }
}

/** The body cut in half: valid JSON no more, for testing a client's parser error path. */
function malformed(reply: Reply): Reply {
  const body = reply.body as string | Uint8Array
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body)
  return { ...reply, body: text.slice(0, Math.max(1, Math.floor(text.length / 2))) }
}

/** What a fault that let the rules answer makes of their answer: a body sent slowly, or one cut in half (a 204 has none to break). */
function faulted(reply: Reply, fault: Fault | undefined): Reply {
  if (fault?.kind === 'slow-body') return { ...reply, paceMs: fault.durationMs ?? DEFAULT_SLOW_BODY_MS }
  if (fault?.kind === 'malformed-json' && reply.body !== null) return malformed(reply)
  return reply
}

/** The headers every answer of the request carries, errors included: its operation's own, by its state's deprecation dates (else the simulator's). */
export function headersOf({ operation, instance, setup }: RequestContext): Readonly<Record<string, string>> {
  if (operation === null || !('headers' in operation)) return NO_HEADERS
  return operation.headers({ deprecation: instance?.settings().deprecation ?? setup.config.deprecation })
}

/** An answer with the headers the steps added and the operation's own. */
function finished(context: RequestContext, reply: Reply): Reply {
  const { extra } = context
  const headers = headersOf(context)
  const added = extra === undefined ? reply : { ...reply, headers: { ...reply.headers, ...extra } }
  return faulted(headers === NO_HEADERS ? added : { ...added, headers: { ...headers, ...added.headers } }, context.fault)
}

/** `Prefer: code=`: the documented answer asked for, with no change of state (and so not the service's answer, for a pact). */
export function answerPreferred(context: RequestContext): Reply | undefined {
  const operation = context.operation as Operation
  const preferred = preferredStatus(context.request.header('Prefer'), operation.id)
  if (preferred === undefined) return undefined
  context.extra = { ...context.extra, 'Preference-Applied': `code=${preferred}` }
  return finished(context, operation.preferred(preferred, callOf(context)))
}

/** The operation's own rule. */
export function answerOperation(context: RequestContext): Reply | Promise<Reply> {
  const reply = (context.operation as Operation).answer(callOf(context))
  return reply instanceof Promise ? reply.then((settled) => finished(context, settled)) : finished(context, reply)
}

/** The path as sent, without its query: what messages quote. */
const sentPath = (context: RequestContext) => context.request.target.replace(/[?#].*$/s, '')

/** The 400 of a path that a server behind the simulator could read as another path (api-path.ts): never routed or forwarded. */
export function refuseInvalidPath(context: RequestContext): undefined {
  const problem = context.path?.problem
  if (problem === undefined) return undefined
  const shown = quote(sentPath(context))
  throw new ApiError(400, ErrorCode.InvalidPath, `The path ${shown} is refused: ${problem}, which a server could read as another path.`)
}

/** A scenario's route for this method, path and query (the state's table): its answer, after the key check unless it says `"auth": false`. */
export function answerRoute(context: RequestContext): Reply | undefined {
  const { instance, path } = context
  // Another case of the base or of an operation's path has no route; a request that reached no state, none either.
  if (instance === null || path === null) return undefined
  // The query as sent: the table parses it only if a route there names parameters.
  const found = instance.routes.match(context.request.method, path.segments, queryOf(context.request.target))
  if (!('route' in found)) return undefined
  // While recording, a recorded route answers only the query it was recorded with: another goes to the deployment.
  const { proxy } = context.setup
  if (proxy?.record === true && instance.routes.recorded(found.index) && !proxy.replays(found.route, context.request.target))
    return undefined
  if (found.route.auth !== false) assertAuthorized(context.request.header('Authorization'), instance.settings().acceptedKeys)
  return routeReply(found.route)
}

/** What no operation or route takes goes to the proxy target, when there is one (proxy/forward-request.ts). */
export function forwardToProxy(context: RequestContext): Promise<Reply> | undefined {
  const { proxy } = context.setup
  if (proxy === null || context.path === null) return undefined
  // A session that could not be made (no accepted key, a bad id) is refused before anything is forwarded.
  if (context.instance === null) throw context.refusal
  return proxy.forward(context, context.instance)
}

/** How many of a state's routes the 404's message names; it counts the rest. */
const ROUTES_NAMED = 10

/** A state's routes as a 404 names them, beside the operations: "GET /v1/a, POST /v1/b and 3 more"; "" without any. */
function describeRoutes(routes: readonly HeldRoute[], basePath: string): string {
  // Each method and path once: routes per query share them.
  const each = [...new Set(routes.map(({ method, path }) => `${method} ${basePath === '' || path !== '/' ? basePath + path : basePath}`))]
  if (each.length === 0) return ''
  const named = each.slice(0, ROUTES_NAMED)
  const rest = each.length - named.length
  const list =
    rest > 0
      ? `${named.join(', ')} and ${rest} more`
      : named.length === 1
        ? named.join('')
        : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`
  return ` The scenario's routes are ${list}.`
}

/**
 * The routes a 404 may name to this request: all of them to a request with an accepted key, else only
 * those answered without one. Recorded paths are the deployment's own (ids, names), not the public's.
 */
function listedRoutes({ instance, request }: RequestContext): readonly HeldRoute[] {
  if (instance === null) return []
  const routes = instance.routes.list()
  try {
    assertAuthorized(request.header('Authorization'), instance.settings().acceptedKeys)
    return routes
  } catch {
    return routes.filter((route) => route.auth === false)
  }
}

/** A request under the base that nothing takes: 405 with `Allow` on a path that answers other methods (OPTIONS: 204 saying them), 404 elsewhere. */
export function answerUnknown(context: RequestContext): Reply {
  const { request, setup, path } = context
  const table = context.instance?.routes ?? OPERATION_TABLE
  const found = path === null ? { allow: [] } : table.match(request.method, path.segments)
  const allowed = 'allow' in found ? found.allow : []
  const allow = allowed.join(', ')
  const shown = sentPath(context)
  // Routes of this method and path that each name a query this request does not carry: its path is known, its query not.
  if (allowed.includes(request.method))
    throw new ApiError(
      404,
      ErrorCode.NotFound,
      `No route at ${request.method} ${quote(shown)} takes ${request.target.includes('?') ? 'this query' : 'a request without a query'}: each route there names the query parameters it answers.`,
    )
  if (allow === '')
    throw new ApiError(
      404,
      ErrorCode.NotFound,
      `No operation at ${request.method} ${quote(shown)}. The simulated operations are ${describeOperations(setup.base.path)}.` +
        describeRoutes(listedRoutes(context), setup.base.path),
    )
  // What the standalone server answers too: the path's methods, no body.
  if (request.method === 'OPTIONS') return { status: 204, headers: { Allow: `${allow}, OPTIONS` }, body: null }
  throw new ApiError(405, ErrorCode.MethodNotAllowed, `${request.method} is not allowed on ${shown}; use ${allow}.`, { Allow: allow })
}
