import { ApiError, payloadTooLarge } from '../api-error.js'
import { faultError, type Fault } from '../controls/faults.js'
import { ErrorCode } from '../error-codes.js'
import type { OperationCall } from '../operations/operation.js'
import { preferredStatus } from '../operations/prefer.js'
import { matchRoute, type Operation, type RouteUrl } from '../operations/routing.js'
import { quote } from '../quote-value.js'
import type { Reply } from '../reply.js'
import type { TimeSource } from '../time-source.js'
import { type DispatchSetup, NO_HEADERS, type Instance, type RequestContext } from './request-context.js'

// The dispatch steps, in the order the dispatcher lists them (dispatcher.ts). Each reads and fills the
// request's context and returns undefined to go on, a reply to answer, or throws the error to answer.

/** Whether the journal entry of this request must say its session was recreated (true once). */
function announceRecreated(instance: Instance): boolean {
  if (instance.recreatedUnannounced !== true) return false
  instance.recreatedUnannounced = false
  return true
}

/** The state the request acts on, the journal that records it and the headers its answers carry. */
export function findSession(context: RequestContext): undefined {
  const { setup, operation } = context
  try {
    const instance = setup.instanceFor(context.request)
    context.instance = instance
    context.journal = instance.journal
    context.sessionRecreated = announceRecreated(instance)
  } catch (error) {
    // Answered after the body limit (`refuseBadSession`), or not at all by a request no operation takes.
    context.refusal = error
  }
  if (operation !== null) context.headers = setup.headersOf(operation, context.instance)
  return undefined
}

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

/** The state the answer depends on, as it was when the request arrived: one lookup, for a pact's provider state. */
export function noteProviderState(context: RequestContext): undefined {
  const { orderId } = context
  const instance = instanceOf(context)
  if (orderId !== null) context.given = instance.store.find(orderId)?.status ?? 'absent'
  else if (context.operation?.id === 'listOrders' && instance.settings().exposeStatus) context.given = 'status-exposed'
  return undefined
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
  if (delay === 0) return undefined
  context.delayed = true
  return sleep(delay, context.request.signal, context.setup.time)
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
 * or a hang instead of the answer; a slow or broken body is made of the answer
 * once it is made (`finished`).
 */
export function injectFault(context: RequestContext): Reply | undefined | Promise<Reply> {
  const fault = instanceOf(context).controls.takeFault((context.operation as Operation).id, context.orderId)
  if (fault === undefined) return undefined
  context.fault = fault
  // These answer instead of the rules; a slow or broken body is the rules' answer, changed (`finished`).
  if (fault.kind === 'status' || fault.kind === 'network' || fault.kind === 'hang') context.control = 'fault'
  if (fault.kind === 'status') throw faultError(fault)
  if (fault.kind === 'network') return networkError(fault, 'dropped the connection on purpose')
  if (fault.kind === 'hang') return hang(fault, context)
  return undefined
}

/** The bearer token as sent (valid or not), for counting requests per key. */
function tokenOf(context: RequestContext): string {
  return (context.request.header('Authorization') ?? '').replace(/^bearer\s+/i, '')
}

/** The 429 past the key's window, and the RateLimit headers on every answer after it. */
export function limitRate(context: RequestContext): undefined {
  const instance = instanceOf(context)
  const { controls } = instance
  // Nothing is allocated for extra headers when no limit is in play (the common case).
  if (controls.rateLimit() === null) return undefined
  const token = tokenOf(context)
  try {
    context.extra = controls.consume(token, instance.settings().acceptedKeys.has(token))
  } catch (error) {
    // Its 429 is the rate limit's answer, not the service's (unless a fault fired first).
    context.control ??= 'rate-limit'
    throw error
  }
  return undefined
}

/** The 401 of a request without an accepted bearer key. */
export function checkKey(context: RequestContext): undefined {
  // From here the service's own rules answer, the key check included: a pact may hold it, unless a fault changes the answer.
  context.inPact = context.fault === undefined
  context.ruled = true
  // Read once: the key check and, for a pact, the journal both need it.
  context.authorization = context.request.header('Authorization')
  context.setup.checkKey(context.authorization, instanceOf(context).settings().acceptedKeys)
  return undefined
}

function callOf(context: RequestContext): OperationCall {
  return { param: context.param, orderId: context.orderId, state: instanceOf(context) }
}

/** The body cut in half: valid JSON no more, for testing a client's parser error path. */
function malformed(reply: Reply): Reply {
  // A 204 has no body to break.
  if (reply.body === null) return reply
  const text = typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body)
  return { ...reply, body: text.slice(0, Math.max(1, Math.floor(text.length / 2))) }
}

/** An answer as sent: the headers the steps added, the operation's own, and what a fault that let it through makes of it. */
function finished(context: RequestContext, reply: Reply): Reply {
  const { extra, headers, fault } = context
  const added = extra === undefined ? reply : { ...reply, headers: { ...reply.headers, ...extra } }
  const whole = headers === NO_HEADERS ? added : { ...added, headers: { ...headers, ...added.headers } }
  if (fault?.kind === 'slow-body') return { ...whole, paceMs: fault.durationMs ?? DEFAULT_SLOW_BODY_MS }
  if (fault?.kind !== 'malformed-json' || whole.body === null) return whole
  // A broken body is the fault's answer, no longer the service's (coverage counts it apart).
  context.control ??= 'fault'
  return malformed(whole)
}

/** `Prefer: code=`: the documented answer asked for, with no change of state (and so not the service's answer, for a pact). */
export function answerPreferred(context: RequestContext): Reply | undefined {
  const operation = context.operation as Operation
  let preferred: number | undefined
  try {
    preferred = preferredStatus(context.request.header('Prefer'), operation.id)
  } catch (error) {
    // An undocumented code's 400 is Prefer's answer, not the service's.
    context.control = 'prefer'
    throw error
  }
  if (preferred === undefined) return undefined
  context.inPact = false
  context.control ??= 'prefer'
  context.extra = { ...context.extra, 'Preference-Applied': `code=${preferred}` }
  return finished(context, operation.preferred(preferred, callOf(context)))
}

/** The operation's own rule. */
export function answerOperation(context: RequestContext): Reply | Promise<Reply> {
  const reply = (context.operation as Operation).answer(callOf(context))
  return reply instanceof Promise ? reply.then((settled) => finished(context, settled)) : finished(context, reply)
}

/** Whether more than the spec's operations may answer in `instance`: a proxy, or a route of its own. */
export function answersBeyondSpec(setup: DispatchSetup, instance: Instance): boolean {
  return setup.proxy !== null || instance.routes.list().length > 0
}

/** The 400 of a path that a server behind the simulator could read as another path (api-path.ts): never routed or forwarded. */
export function refuseInvalidPath(context: RequestContext): undefined {
  const problem = context.path?.problem
  if (problem === undefined) return undefined
  const shown = quote(context.url?.pathname ?? '')
  throw new ApiError(400, ErrorCode.InvalidPath, `The path ${shown} is refused: ${problem}, which a server could read as another path.`)
}

/** A scenario's route, else the proxy target (beyond-spec.ts, loaded when there is either). */
export function beyondSpec(context: RequestContext): undefined | Promise<Reply | undefined> {
  const { instance } = context
  // Another case of the base or of an operation's path: its 404, never passed on.
  if (context.path === null) return undefined
  // A session that could not be made (no accepted key, a bad id) is refused before anything is forwarded.
  if (instance === null && context.setup.proxy !== null) throw context.refusal
  if (instance === null || !answersBeyondSpec(context.setup, instance)) return undefined
  return import('./beyond-spec.js').then(({ answerBeyondSpec }) => answerBeyondSpec(context, instance))
}

/** A request under the base that no operation takes: 405 with `Allow` on a known path, 404 elsewhere. */
export function answerUnknown(context: RequestContext): Reply {
  const { request, setup } = context
  const url = context.url as RouteUrl
  const match = matchRoute(url, setup.base)
  if (match === null) {
    throw new ApiError(
      404,
      ErrorCode.NotFound,
      `No operation at ${request.method} ${quote(url.pathname)}. The simulated operations are ${setup.operations}.`,
    )
  }
  const allowed = match.operation.method
  // What the standalone server answers too: the path's methods, no body.
  if (request.method === 'OPTIONS') return { status: 204, headers: { Allow: `${allowed}, OPTIONS` }, body: null }
  throw new ApiError(405, ErrorCode.MethodNotAllowed, `${request.method} is not allowed on ${url.pathname}; use ${allowed}.`, {
    Allow: allowed,
  })
}
