import { ApiError, errorReply } from '../api-error.js'
import { runningTests } from '../outcome-coverage/current-test.js'
import type { Int64Key } from '../int64.js'
import type { ApiPath } from '../operations/api-path.js'
import { apiPathOf, isUnderBase, type ApiBase, type Operation, type RouteUrl } from '../operations/routing.js'
import type { Given } from '../pact/provider-states.js'
import type { Reply, SimRequest } from '../reply.js'
import type { RouteBook } from '../routes/route-book.js'
import { OPERATION_TABLE, operationAt, type OperationEntry } from '../routes/route-table.js'
import { sessionNamedBy } from '../simulator/session-source.js'
import { type AnsweredBy, elapsedSince, inPact, type JournalRecord } from '../state/journal.js'
import { systemTime } from '../time-source.js'
import type { DispatchContext, DispatchSetup, Instance, RequestContext, Step } from './request-context.js'
import {
  answerOperation,
  answerPreferred,
  answerRoute,
  answerUnknown,
  checkBodySize,
  checkKey,
  forwardToProxy,
  headersOf,
  injectFault,
  limitRate,
  refuseBadSession,
  refuseInvalidPath,
  waitLatency,
} from './steps.js'

/** A step, and who answered when it answers or throws; null for a step that never answers (it waits). */
type Tagged = readonly [Step, AnsweredBy | null]

/**
 * The steps of a request to an operation, in order (steps.ts). The first that
 * answers (or throws) ends it; whatever answered, the dispatcher records it
 * last, once (`settle`): the journal, a pact and coverage read that record.
 */
const OPERATION_STEPS: readonly Tagged[] = [
  [checkBodySize, 'refused'], // 413 past the body limit, a transport limit, before any rule
  [refuseBadSession, 'refused'], // the 400 or 401 of a session that could not be found or made
  [waitLatency, null], // the latency set for the operation
  [injectFault, 'fault'], // a fault: an error, a dropped connection or a hang instead of the answer; or a slow or broken body
  [limitRate, 'rate-limit'], // 429 past the key's window; RateLimit headers on what follows
  [checkKey, 'operation'], // 401 without an accepted bearer key: the service's rules from here
  [answerPreferred, 'prefer'], // `Prefer: code=`: the documented answer asked for, no change of state
  [answerOperation, 'operation'], // the operation's own rule
]

/**
 * The steps of a request under the base that no operation takes: 400 for a
 * path a server behind could read as another, then a scenario's route, else
 * the proxy target, else a 404 or 405 from the state's table. Recorded in its
 * session's journal, whatever its session.
 */
const UNKNOWN_STEPS: readonly Tagged[] = [
  [checkBodySize, 'refused'],
  [refuseInvalidPath, 'refused'],
  [answerRoute, 'route'],
  [forwardToProxy, 'proxy'],
  [answerUnknown, 'unknown'],
]

/** The service's operations, answered from plain values: what every transport calls. */
export type Dispatcher = ReturnType<typeof createDispatcher>

/** Whether the journal entry of this request must say its session was recreated (true once). */
function announceRecreated(instance: Instance | null): boolean {
  if (instance?.recreatedUnannounced !== true) return false
  instance.recreatedUnannounced = false
  return true
}

/** A 200 answered `[]`: the UI's empty state, which coverage counts apart. */
function isEmptyList(body: Reply['body']): boolean {
  return body !== null && body.length === 2 && (typeof body === 'string' ? body === '[]' : body[0] === 0x5b && body[1] === 0x5d)
}

/**
 * Records a request once: what it was, who answered (`by`) and how, in its journal and, for what an
 * operation's rules or controls answered, in its state's coverage. Then hands the answer on.
 */
function settle(context: RequestContext, reply: Reply, error: ApiError | null, by: AnsweredBy | undefined, delayed: boolean): Reply {
  const { instance, operation, request } = context
  const record: JournalRecord = {
    time: context.arrived.time,
    method: request.method,
    path: request.target,
    status: reply.status,
    duration: elapsedSince(context.arrived.started),
    operation: operation?.id ?? null,
    orderId: context.orderId,
    sessionRecreated: announceRecreated(instance),
    sessionHeader: context.namedBy,
    answeredBy: by,
    fault: context.fault?.kind,
    delayed,
    // A client that gave up during latency never got the answer. Asked only then: over HTTP the signal is made on first ask.
    aborted: delayed && request.signal?.aborted === true,
    body: reply.body === null ? 'none' : reply.status === 200 && isEmptyList(reply.body) ? 'empty list' : 'some',
    code: error?.code ?? null,
    given: null,
    authorization: null,
    message: null,
  }
  // Read only for a pact's requests: the others need none of it.
  if (inPact(record)) {
    record.given = context.given
    record.authorization = request.header('Authorization')
    record.message = error?.message ?? null
  }
  if (operation !== null && instance !== null) instance.coverage.count(record, context.arrived.tests)
  ;(instance?.journal ?? context.setup.journal).record(record)
  return reply
}

/** A failure as the Error body to answer, with the headers the steps added; what is no `ApiError` (a bug, a broken environment) is reported too. */
function settleFailure(context: RequestContext, error: unknown, by: AnsweredBy | undefined, delayed: boolean): Reply {
  if (!(error instanceof ApiError)) {
    context.setup.report(error, context.request)
    return settle(context, errorReply(error, headersOf(context)), null, by, delayed)
  }
  const { extra } = context
  const answered = extra === undefined ? error : new ApiError(error.status, error.code, error.message, { ...error.headers, ...extra })
  // The proxy throws only what it refuses to send (400): such a request was never forwarded.
  return settle(context, errorReply(answered, headersOf(context)), answered, by === 'proxy' ? 'refused' : by, delayed)
}

/**
 * Answers one request through `steps` and records it once. Every failure,
 * expected or not, leaves as an Error body, never a stack trace. Synchronous
 * when every step is: no promise or microtask on the common path.
 */
function dispatch(context: RequestContext, steps: readonly Tagged[]): Reply | Promise<Reply> {
  let delayed = false
  let by: AnsweredBy | undefined
  const runFrom = (first: number): Reply | Promise<Reply> => {
    for (let index = first; index < steps.length; index++) {
      const [step, tag] = steps[index] as Tagged
      by = tag ?? undefined
      const outcome = step(context)
      if (outcome instanceof Promise) {
        // A step that never answers and had to wait: the latency set with the controls.
        if (tag === null) delayed = true
        return outcome.then((answered) => answered ?? runFrom(index + 1))
      }
      if (outcome !== undefined) return outcome
    }
    // The last step of each list answers or throws: reaching here is a bug, answered 500 and reported.
    throw new Error('No dispatch step answered the request.')
  }
  // A fault that broke the rules' body decided the answer (a `Prefer` answer stays `Prefer`'s).
  const broken = (reply: Reply) => by === 'operation' && context.fault?.kind === 'malformed-json' && reply.body !== null
  const done = (reply: Reply) => settle(context, reply, null, broken(reply) ? 'fault' : by, delayed)
  let answered: Reply | Promise<Reply>
  try {
    answered = runFrom(0)
  } catch (error) {
    return settleFailure(context, error, by, delayed)
  }
  if (!(answered instanceof Promise)) return done(answered)
  return answered.then(done, (error: unknown) => settleFailure(context, error, by, delayed))
}

/** A request's context as it arrives: the state it reaches (or why none), and what its answer depends on. */
function arrive(
  setup: DispatchSetup,
  request: SimRequest,
  operation: Operation | null,
  param: string,
  path: ApiPath | null,
): RequestContext {
  // The tests running as it arrives, for coverage: a slow answer is still theirs when it comes.
  const arrived = { time: setup.time.now(), started: performance.now(), tests: runningTests() }
  // Read once: the state and the journal entry both go by it.
  const named = sessionNamedBy(request)
  let instance: Instance | null = null
  let refusal: unknown
  try {
    instance = setup.instanceFor(request, named)
  } catch (error) {
    // Answered after the body limit (`refuseBadSession`), or not at all by a request no operation takes.
    refusal = error
  }
  const orderId = operation !== null && 'orderIdOf' in operation ? operation.orderIdOf(param) : null
  const given = instance === null ? null : providerState(instance, operation, orderId)
  const namedBy = named?.from ?? null
  return { setup, request, operation, param, orderId, path, arrived, namedBy, instance, refusal, given, fault: undefined, extra: undefined }
}

/** What the answer depends on as the request arrived, before any latency: one lookup, for a pact's provider state. */
function providerState(instance: Instance, operation: Operation | null, orderId: Int64Key | null): Given | null {
  try {
    if (orderId !== null) return instance.store.find(orderId)?.status ?? 'absent'
    return operation?.id === 'listOrders' && instance.settings().exposeStatus ? 'status-exposed' : null
  } catch {
    // A store that fails fails the operation's own rule too, which answers its 500: no provider state is needed.
    return null
  }
}

/**
 * The path a request under the base may be routed or forwarded by, or null: not under the base in its
 * own case, or, to a server that ignores case, the base or an operation's path spelled in another case
 * (the path itself with another method is not). Such a request is answered 404 here and never routed
 * or forwarded, so no spelling of the spec's operations reaches a server behind the simulator.
 */
export function routablePath(url: RouteUrl, base: ApiBase): ApiPath | null {
  const path = apiPathOf(url, base)
  if (path === null || operationAt(path.segments) !== undefined) return path
  return operationAt(path.segments.map((segment) => segment.toLowerCase())) === undefined ? path : null
}

/** Creates the dispatcher of a simulator's state. */
export function createDispatcher(context: DispatchContext) {
  const setup: DispatchSetup = { ...context, time: context.time ?? systemTime, proxy: context.proxy ?? null }
  const { base } = context
  /** Answers one operation (the method already matched); `param` is the decoded path parameter, or "". */
  const operation = (request: SimRequest, definition: Operation, param: string): Reply | Promise<Reply> =>
    dispatch(arrive(setup, request, definition, param, null), OPERATION_STEPS)
  /** Answers a request under the base that no operation takes: a route, the proxy, else 405 with `Allow` on a known path, 404 elsewhere. */
  const unknown = (request: SimRequest, url: RouteUrl): Reply | Promise<Reply> =>
    dispatch(arrive(setup, request, null, '', routablePath(url, base)), UNKNOWN_STEPS)
  /** False when requests that match no operation are left to others (`fallthrough`, or a bare "/" base: on any origin it would take every request the process makes). */
  const answersUnknown = !context.fallthrough && (base.origin !== null || base.path !== '')
  /** The spec operation `method` and `url` ask for, by the one table, or null. */
  const find = (method: string, url: RouteUrl): OperationEntry | null => {
    const path = apiPathOf(url, base)
    const found = path === null ? null : OPERATION_TABLE.match(method, path.segments)
    return found !== null && 'operation' in found ? found : null
  }
  return {
    operation,
    unknown,
    find,
    answersUnknown,
    /** The methods a CORS preflight for `url` allows: its path's, in the state the request reaches; none said (any) with a proxy or nothing there. */
    allowed(request: SimRequest, url: RouteUrl): string[] {
      const path = routablePath(url, base)
      if (setup.proxy !== null || path === null) return []
      let table: Pick<RouteBook, 'match'> = OPERATION_TABLE
      try {
        table = setup.instanceFor(request, sessionNamedBy(request)).routes
      } catch {
        // No state for it (a bad session): the spec's operations alone.
      }
      const found = table.match('OPTIONS', path.segments)
      return 'allow' in found ? found.allow : []
    },
    /** An operation, or what answers an unknown one under the base; null when the request is not the API's. */
    route(request: SimRequest, url: RouteUrl): Reply | Promise<Reply> | null {
      if (!isUnderBase(url, base)) return null
      const found = find(request.method, url)
      if (found !== null) return operation(request, found.operation, found.param)
      return answersUnknown ? unknown(request, url) : null
    },
  }
}
