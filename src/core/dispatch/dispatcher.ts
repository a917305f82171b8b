import { ApiError, errorReply } from '../api-error.js'
import { assertAuthorized } from '../bearer-auth.js'
import type { OperationConfig } from '../operations/operation.js'
import { describeOperations, OPERATIONS, type OperationId } from '../operations/registry.js'
import {
  apiPathOf,
  isUnderBase,
  rememberedRoute,
  shadowsOperation,
  type ApiBase,
  type Operation,
  type RouteUrl,
} from '../operations/routing.js'
import type { Reply, SimRequest } from '../reply.js'
import { elapsedSince, type JournalWriter } from '../state/journal.js'
import { systemTime, type TimeSource } from '../time-source.js'
import { NO_HEADERS, type DispatchSetup, type Instance, type ProxySetup, type RequestContext, type Step } from './request-context.js'
import {
  answerOperation,
  answerPreferred,
  answerUnknown,
  answersBeyondSpec,
  beyondSpec,
  checkBodySize,
  checkKey,
  findSession,
  injectFault,
  limitRate,
  noteProviderState,
  refuseBadSession,
  refuseInvalidPath,
  waitLatency,
} from './steps.js'
import type { ErrorReporter } from './error-reporter.js'

/**
 * The steps of a request to an operation, in order (steps.ts). Each reads and
 * fills the request's context; the first that answers (or throws) ends it, and
 * whatever answered, the journal records it last (`settle`).
 */
const OPERATION_STEPS: readonly Step[] = [
  findSession, // the state it acts on (X-Sim-Session) and the journal that records it
  checkBodySize, // 413 past the body limit, a transport limit, before any rule
  refuseBadSession, // the 400 or 401 of a session that could not be found or made
  noteProviderState, // what the answer depends on as the request arrived, for a pact
  waitLatency, // the latency set for the operation
  injectFault, // a fault: an error, a dropped connection or a hang instead of the answer; or a slow or broken body
  limitRate, // 429 past the key's window; RateLimit headers on what follows
  checkKey, // 401 without an accepted bearer key
  answerPreferred, // `Prefer: code=`: the documented answer asked for, no change of state
  answerOperation, // the operation's own rule
  // and last, whatever answered or failed: the journal entry (`settle`)
]

/**
 * The steps of a request under the base that no operation takes: 400 for a path
 * a server behind could read as another, then a scenario's route, else the
 * proxy target, else a 404 or 405 (beyond-spec.ts). Recorded
 * in its session's journal, whatever its session.
 */
const UNKNOWN_STEPS: readonly Step[] = [findSession, checkBodySize, refuseInvalidPath, beyondSpec, answerUnknown]

/** What the dispatcher reads from the simulator on every request. */
export interface DispatchContext {
  base: ApiBase
  /** The state a request acts on (X-Sim-Session picks a session's); throws the 400 or 401 to answer. */
  instanceFor(request: SimRequest): Instance
  /** Where a request is recorded when it reaches no instance. */
  journal: JournalWriter
  config: OperationConfig
  /** Leave requests under the base that match no operation to other handlers instead of answering 404/405. */
  fallthrough: boolean
  /** Requests declaring a larger body get 413, as the standalone server does. */
  bodyLimit: number
  /** Told of every error answered 500 `internal_error`. */
  report: ErrorReporter
  /** The time the journal records and the latency waits by; the machine's by default. */
  time?: TimeSource
  /** Forward what no operation or route takes to a real deployment (docs/proxy.md). */
  proxy?: ProxySetup | null
}

/** The service's operations, answered from plain values: what every transport calls. */
export interface Dispatcher {
  /** Answers one operation (the method already matched); `param` is the decoded path parameter, or "". */
  operation(request: SimRequest, operation: Operation, param: string): Reply | Promise<Reply>
  /** Answers a request under the base that no operation takes: 405 with `Allow` on a known path, 404 elsewhere. */
  unknown(request: SimRequest, url: RouteUrl): Reply | Promise<Reply>
  /** False when requests that match no operation are left to others (`fallthrough`, or a bare "/" base). */
  readonly answersUnknown: boolean
  /** Whether more than the spec's operations may answer: a proxy, or routes in the state the request reaches (a preflight allows any method then). */
  answersBeyondSpec(request: SimRequest): boolean
  /** An operation, or the 404/405 of an unknown one under the base; null when the request is not the API's. */
  route(request: SimRequest, url: RouteUrl): Reply | Promise<Reply> | null
}

/** Records a request's answer in the journal and its outcome in coverage, then hands the answer on. */
function settle(context: RequestContext, reply: Reply, error: ApiError | null): Reply {
  const { inPact, instance, operation, control } = context
  // What reached an operation's rules or controls: not a refused session or a body over the limit.
  if (operation !== null && instance !== null && (context.ruled || control !== undefined)) {
    instance.coverage.count({
      operation: operation.id,
      reply,
      code: error?.code ?? null,
      control,
      fault: context.fault?.kind,
      delayed: context.delayed,
      // A client that gave up during latency never got the answer. Asked only then: over HTTP the signal is made on first ask.
      aborted: context.delayed && context.request.signal?.aborted === true,
    })
  }
  context.journal.record({
    time: context.time,
    method: context.request.method,
    path: context.request.target,
    status: reply.status,
    duration: elapsedSince(context.started),
    operation: context.operation?.id ?? null,
    orderId: context.orderId,
    sessionRecreated: context.sessionRecreated,
    forwarded: context.forwarded,
    inPact,
    // Read only for a pact's requests: the others need none of it.
    given: inPact ? context.given : null,
    authorization: inPact ? context.authorization : null,
    code: inPact && error !== null ? error.code : null,
    message: inPact && error !== null ? error.message : null,
  })
  return reply
}

/** A failure as the Error body to answer, with the headers the steps added; what is no `ApiError` (a bug, a broken environment) is reported too. */
function settleFailure(context: RequestContext, error: unknown): Reply {
  if (!(error instanceof ApiError)) {
    context.setup.report(error, context.request)
    return settle(context, errorReply(error, context.headers), null)
  }
  const { extra } = context
  const answered = extra === undefined ? error : new ApiError(error.status, error.code, error.message, { ...error.headers, ...extra })
  return settle(context, errorReply(answered, context.headers), answered)
}

/** Runs `steps` from `first` until one answers; synchronous as long as they are. */
function runFrom(context: RequestContext, steps: readonly Step[], first: number): Reply | Promise<Reply> {
  for (let index = first; index < steps.length; index++) {
    const outcome = (steps[index] as Step)(context)
    if (outcome instanceof Promise) return outcome.then((answered) => answered ?? runFrom(context, steps, index + 1))
    if (outcome !== undefined) return outcome
  }
  // The last step of each list answers or throws: reaching here is a bug, answered 500 and reported.
  throw new Error('No dispatch step answered the request.')
}

/**
 * Answers one request through `steps` and records it in the journal. Every
 * failure, expected or not, leaves as an Error body, never a stack trace.
 * Synchronous when every step is: no promise or microtask on the common path.
 */
function dispatch(context: RequestContext, steps: readonly Step[]): Reply | Promise<Reply> {
  let answered: Reply | Promise<Reply>
  try {
    answered = runFrom(context, steps, 0)
  } catch (error) {
    return settleFailure(context, error)
  }
  if (!(answered instanceof Promise)) return settle(context, answered, null)
  return answered.then(
    (reply) => settle(context, reply, null),
    (error: unknown) => settleFailure(context, error),
  )
}

/** A request's context as it arrives: nothing found out yet. */
function arrive(
  setup: DispatchSetup,
  request: SimRequest,
  operation: Operation | null,
  param: string,
  url: RouteUrl | null,
): RequestContext {
  return {
    setup,
    request,
    operation,
    param,
    orderId: operation !== null && 'orderIdOf' in operation ? operation.orderIdOf(param) : null,
    url,
    path: url === null || shadowsOperation(url, setup.base) ? null : apiPathOf(url, setup.base),
    time: setup.time.now(),
    started: performance.now(),
    instance: null,
    refusal: undefined,
    journal: setup.journal,
    sessionRecreated: false,
    headers: NO_HEADERS,
    fault: undefined,
    extra: undefined,
    inPact: false,
    given: null,
    authorization: null,
    forwarded: false,
    control: undefined,
    ruled: false,
    delayed: false,
  }
}

/** What every request of a dispatcher reads, made once from the simulator's context. */
function setupOf(context: DispatchContext): DispatchSetup {
  const alwaysHeaders = new Map<OperationId, Readonly<Record<string, string>>>(
    OPERATIONS.map((operation) => [operation.id, 'headers' in operation ? operation.headers(context.config) : NO_HEADERS]),
  )
  return {
    base: context.base,
    instanceFor: (request) => context.instanceFor(request),
    journal: context.journal,
    bodyLimit: context.bodyLimit,
    report: context.report,
    time: context.time ?? systemTime,
    checkKey: assertAuthorized,
    // The headers of a state's own scenario (its deprecation dates), else the simulator's: made per request, pets only.
    headersOf(operation, instance) {
      const deprecation = instance?.settings().deprecation
      if (deprecation === undefined || !('headers' in operation)) return alwaysHeaders.get(operation.id) ?? NO_HEADERS
      return operation.headers({ deprecation })
    },
    operations: describeOperations(context.base.path),
    proxy: context.proxy ?? null,
  }
}

/** Creates the dispatcher of a simulator's state. */
export function createDispatcher(context: DispatchContext): Dispatcher {
  const setup = setupOf(context)
  const { base } = context
  const operation = (request: SimRequest, definition: Operation, param: string) =>
    dispatch(arrive(setup, request, definition, param, null), OPERATION_STEPS)
  const unknown = (request: SimRequest, url: RouteUrl) => dispatch(arrive(setup, request, null, '', url), UNKNOWN_STEPS)
  // Under a bare "/" on any origin there is nothing to scope a catch-all by: it would take every request the process makes.
  const answersUnknown = !context.fallthrough && (base.origin !== null || base.path !== '')
  const routeOf = rememberedRoute(base)
  return {
    operation,
    unknown,
    answersUnknown,
    answersBeyondSpec(request) {
      try {
        return answersBeyondSpec(setup, setup.instanceFor(request))
      } catch {
        // No state for it (a bad session): only a proxy could answer.
        return setup.proxy !== null
      }
    },
    route(request, url) {
      const match = routeOf(url)
      if (match !== null && request.method === match.operation.method) return operation(request, match.operation, match.param)
      return answersUnknown && isUnderBase(url, base) ? unknown(request, url) : null
    },
  }
}
