import { ApiError } from '../api-error.js'
import { assertAuthorized } from '../bearer-auth.js'
import type { Controls } from '../controls/controls.js'
import { ErrorCode } from '../error-codes.js'
import type { Int64Key } from '../int64.js'
import type { OperationConfig, OperationState } from '../operations/operation.js'
import { preferredStatus } from '../operations/prefer.js'
import { describeOperations, OPERATIONS, type OperationId } from '../operations/registry.js'
import { isUnderBase, matchRoute, type ApiBase, type Operation } from '../operations/routing.js'
import { quote } from '../quote-value.js'
import type { Reply, SimRequest } from '../reply.js'
import type { JournalWriter } from '../state/journal.js'
import { answer, type AnswerContext, type AnswerSubject } from './answer.js'
import { faultAfter, faultInstead, sleep } from './misbehaviour.js'
import type { ErrorReporter } from './unexpected-error.js'

const EMPTY: Readonly<Record<string, string>> = {}

/** One independent state a request acts on: orders, settings, controls, journal. */
export interface Instance extends OperationState {
  controls: Controls
  journal: JournalWriter
  /** Set on a session that had been dropped and was made afresh, until its first journal entry says so. */
  recreatedUnannounced?: boolean
}

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
}

/** The service's operations, answered from plain values: what every transport calls. */
export interface Dispatcher {
  /** Answers one operation (the method already matched); `param` is the decoded path parameter, or "". */
  operation(request: SimRequest, operation: Operation, param: string): Promise<Reply>
  /** Answers a request under the base that no operation takes: 405 with `Allow` on a known path, 404 elsewhere. */
  unknown(request: SimRequest, url: URL): Promise<Reply>
  /** False when requests that match no operation are left to others (`fallthrough`, or a bare "/" base). */
  readonly answersUnknown: boolean
  /** An operation, or the 404/405 of an unknown one under the base; null when the request is not the API's. */
  route(request: SimRequest, url: URL): Promise<Reply> | null
}

/** Whether the journal entry of this request must say its session was recreated (true once). */
function announceRecreated(instance: Instance): boolean {
  if (instance.recreatedUnannounced !== true) return false
  instance.recreatedUnannounced = false
  return true
}

/** The bearer token as sent (valid or not), for counting requests per key. */
function tokenOf(request: SimRequest): string {
  return (request.header('Authorization') ?? '').replace(/^bearer\s+/i, '')
}

/** What a request is about, before it is answered: the pact's fields are filled in while answering. */
function subjectOf(operation: OperationId | null, orderId: Int64Key | null, headers: Readonly<Record<string, string>>): AnswerSubject {
  return { operation, orderId, headers, contract: false, given: null, authorization: null }
}

/** Headers added to an answer, errors included: RateLimit ones, Preference-Applied. */
function withHeaders(reply: Reply, extra: Record<string, string> | undefined): Reply {
  return extra === undefined ? reply : { ...reply, headers: { ...reply.headers, ...extra } }
}

/** The key check, `Prefer` and the operation, with the RateLimit headers around them. */
async function keyedAnswer(
  request: SimRequest,
  operation: Operation,
  param: string,
  orderId: Int64Key | null,
  instance: Instance,
  subject: AnswerSubject,
): Promise<Reply> {
  const { controls } = instance
  // Nothing is allocated for extra headers when no limit and no Prefer is in play (the common case).
  let extra: Record<string, string> | undefined
  try {
    if (controls.rateLimit() !== null) {
      const token = tokenOf(request)
      extra = controls.consume(token, instance.settings().acceptedKeys.has(token))
    }
    // From here the service's own rules answer, the key check included: a pact may hold it.
    subject.contract = true
    // Read once: the key check and, for a pact, the journal both need it.
    subject.authorization = request.header('Authorization')
    assertAuthorized(subject.authorization, instance.settings().acceptedKeys)
    const call = { param, orderId, state: instance }
    const preferred = preferredStatus(request.header('Prefer'), operation.id)
    if (preferred === undefined) return withHeaders(await operation.answer(call), extra)
    subject.contract = false
    extra = { ...extra, 'Preference-Applied': `code=${preferred}` }
    return withHeaders(operation.preferred(preferred, call), extra)
  } catch (error) {
    if (error instanceof ApiError && extra !== undefined)
      throw new ApiError(error.status, error.code, error.message, { ...error.headers, ...extra })
    throw error
  }
}

/** Creates the dispatcher of a simulator's state. */
export function createDispatcher(context: DispatchContext): Dispatcher {
  const { base } = context
  const alwaysHeaders = new Map<OperationId, Readonly<Record<string, string>>>(
    OPERATIONS.map((operation) => [operation.id, 'headers' in operation ? operation.headers(context.config) : EMPTY]),
  )
  // The headers of a state's own scenario (its deprecation dates), else the simulator's: made per request, pets only.
  const headersOf = (definition: Operation, instance: Instance | null): Readonly<Record<string, string>> => {
    const deprecation = instance?.settings().deprecation
    if (deprecation === undefined || !('headers' in definition)) return alwaysHeaders.get(definition.id) ?? EMPTY
    return definition.headers({ deprecation })
  }

  /** How a request is answered: recorded in its instance's journal, or in the simulator's own when it reaches none. */
  const contextOf = (instance: Instance | null): AnswerContext => ({
    journal: instance?.journal ?? context.journal,
    bodyLimit: context.bodyLimit,
    sessionRecreated: instance !== null && announceRecreated(instance),
    report: context.report,
  })

  function answerContext(request: SimRequest): AnswerContext {
    try {
      return contextOf(context.instanceFor(request))
    } catch {
      return contextOf(null)
    }
  }

  function operation(request: SimRequest, definition: Operation, param: string): Promise<Reply> {
    const orderId = 'orderIdOf' in definition ? definition.orderIdOf(param) : null
    let instance: Instance
    try {
      instance = context.instanceFor(request)
    } catch (error) {
      return answer(contextOf(null), request, subjectOf(definition.id, orderId, headersOf(definition, null)), () => Promise.reject(error))
    }
    const headers = headersOf(definition, instance)
    const subject = subjectOf(definition.id, orderId, headers)
    return answer(contextOf(instance), request, subject, async () => {
      // The state the answer depends on, as it was when the request arrived: one lookup, for a pact's provider state.
      if (orderId !== null) subject.given = instance.store.find(orderId)?.status ?? 'absent'
      else if (definition.id === 'listOrders' && instance.settings().exposeStatus) subject.given = 'status-exposed'
      const { controls } = instance
      const delay = controls.delayFor(definition.id)
      if (delay > 0) await sleep(delay, request.signal)
      const fault = controls.takeFault(definition.id, orderId)
      const instead = fault === undefined ? undefined : await faultInstead(fault, request.signal)
      if (instead !== undefined) return instead
      let reply: Reply
      try {
        reply = await keyedAnswer(request, definition, param, orderId, instance, subject)
      } finally {
        // A fault that lets the answer through still changes it (slow or broken body): not the service's answer.
        if (fault !== undefined) subject.contract = false
      }
      if (headers !== EMPTY) reply = { ...reply, headers: { ...headers, ...reply.headers } }
      return fault === undefined ? reply : faultAfter(fault, reply)
    })
  }

  const operations = describeOperations(base.path)
  function unknown(request: SimRequest, url: URL): Promise<Reply> {
    return answer(
      answerContext(request),
      request,
      { operation: null, orderId: null, headers: EMPTY, contract: false, given: null, authorization: null },
      () => {
        const match = matchRoute(url, base)
        if (match === null) {
          throw new ApiError(
            404,
            ErrorCode.NotFound,
            `No operation at ${request.method} ${quote(url.pathname)}. The simulated operations are ${operations}.`,
          )
        }
        const allowed = match.operation.method
        // What the standalone server answers too: the path's methods, no body.
        if (request.method === 'OPTIONS') return { status: 204, headers: { Allow: `${allowed}, OPTIONS` }, body: null }
        throw new ApiError(405, ErrorCode.MethodNotAllowed, `${request.method} is not allowed on ${url.pathname}; use ${allowed}.`, {
          Allow: allowed,
        })
      },
    )
  }

  // Under a bare "/" on any origin there is nothing to scope a catch-all by: it would take every request the process makes.
  const answersUnknown = !context.fallthrough && (base.origin !== null || base.path !== '')
  return {
    operation,
    unknown,
    answersUnknown,
    route(request, url) {
      const match = matchRoute(url, base)
      if (match !== null && request.method === match.operation.method) return operation(request, match.operation, match.param)
      return answersUnknown && isUnderBase(url, base) ? unknown(request, url) : null
    },
  }
}
