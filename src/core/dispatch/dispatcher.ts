import { ApiError } from '../api-error.js'
import { createKeyCheck } from '../bearer-auth.js'
import { ErrorCode } from '../error-codes.js'
import type { Int64Key } from '../int64.js'
import type { OperationConfig } from '../operations/operation.js'
import { describeOperations, OPERATIONS, type OperationId } from '../operations/registry.js'
import { isUnderBase, matchRoute, rememberedRoute, type ApiBase, type Operation, type RouteUrl } from '../operations/routing.js'
import { quote } from '../quote-value.js'
import type { Reply, SimRequest } from '../reply.js'
import type { JournalWriter } from '../state/journal.js'
import { answer, type AnswerContext, type AnswerSubject } from './answer.js'
import { afterDelay, EMPTY, type Instance } from './keyed-answer.js'
import { sleep } from './misbehaviour.js'
import type { ErrorReporter } from './unexpected-error.js'

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
  operation(request: SimRequest, operation: Operation, param: string): Reply | Promise<Reply>
  /** Answers a request under the base that no operation takes: 405 with `Allow` on a known path, 404 elsewhere. */
  unknown(request: SimRequest, url: RouteUrl): Reply | Promise<Reply>
  /** False when requests that match no operation are left to others (`fallthrough`, or a bare "/" base). */
  readonly answersUnknown: boolean
  /** An operation, or the 404/405 of an unknown one under the base; null when the request is not the API's. */
  route(request: SimRequest, url: RouteUrl): Reply | Promise<Reply> | null
}

/** Whether the journal entry of this request must say its session was recreated (true once). */
function announceRecreated(instance: Instance): boolean {
  if (instance.recreatedUnannounced !== true) return false
  instance.recreatedUnannounced = false
  return true
}

/** What a request is about, before it is answered: the pact's fields are filled in while answering. */
function subjectOf(operation: OperationId | null, orderId: Int64Key | null, headers: Readonly<Record<string, string>>): AnswerSubject {
  return { operation, orderId, headers, contract: false, given: null, authorization: null }
}

/** Creates the dispatcher of a simulator's state. */
export function createDispatcher(context: DispatchContext): Dispatcher {
  const { base } = context
  const checkKey = createKeyCheck()
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

  function operation(request: SimRequest, definition: Operation, param: string): Reply | Promise<Reply> {
    const orderId = 'orderIdOf' in definition ? definition.orderIdOf(param) : null
    let instance: Instance
    try {
      instance = context.instanceFor(request)
    } catch (error) {
      return answer(contextOf(null), request, subjectOf(definition.id, orderId, headersOf(definition, null)), () => {
        throw error
      })
    }
    const headers = headersOf(definition, instance)
    const subject = subjectOf(definition.id, orderId, headers)
    return answer(contextOf(instance), request, subject, () => {
      // The state the answer depends on, as it was when the request arrived: one lookup, for a pact's provider state.
      if (orderId !== null) subject.given = instance.store.find(orderId)?.status ?? 'absent'
      else if (definition.id === 'listOrders' && instance.settings().exposeStatus) subject.given = 'status-exposed'
      const delay = instance.controls.delayFor(definition.id)
      if (delay === 0) return afterDelay(request, definition, param, orderId, instance, subject, headers, checkKey)
      return sleep(delay, request.signal).then(() => afterDelay(request, definition, param, orderId, instance, subject, headers, checkKey))
    })
  }

  const operations = describeOperations(base.path)
  function unknown(request: SimRequest, url: RouteUrl): Reply | Promise<Reply> {
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
  const routeOf = rememberedRoute(base)
  return {
    operation,
    unknown,
    answersUnknown,
    route(request, url) {
      const match = routeOf(url)
      if (match !== null && request.method === match.operation.method) return operation(request, match.operation, match.param)
      return answersUnknown && isUnderBase(url, base) ? unknown(request, url) : null
    },
  }
}
