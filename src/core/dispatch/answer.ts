import { ApiError, errorReply, payloadTooLarge } from '../api-error.js'
import type { Int64Key } from '../int64.js'
import type { OperationId } from '../operations/registry.js'
import type { Given } from '../pact/provider-states.js'
import type { Reply, SimRequest } from '../reply.js'
import { elapsedSince, type JournalWriter } from '../state/journal.js'
import type { ErrorReporter } from './unexpected-error.js'

/** Where one request is recorded, and what it may send. */
export interface AnswerContext {
  journal: JournalWriter
  bodyLimit: number
  /** The request found its session dropped and got a fresh one. */
  sessionRecreated: boolean
  /** Where an error that is not an answer (a bug, a broken environment) is told, since its 500 says nothing. */
  report: ErrorReporter
}

/** What the journal says of a request besides its status. */
export interface AnswerSubject {
  operation: OperationId | null
  orderId: Int64Key | null
  /** Headers every answer carries, errors included. */
  headers: Readonly<Record<string, string>>
  /** Set while answering: the service's rules answered (no fault, `Prefer` or rate limit), so the request belongs in a pact. */
  contract: boolean
  /** Set on arrival: what the answer depends on (a cancelled order's status), for the pact's provider state. */
  given: Given | null
  /** The Authorization header, set where the key is checked. */
  authorization: string | null
}

/** Records a request's answer in the journal, then hands the answer on. */
function settle(
  context: AnswerContext,
  request: SimRequest,
  subject: AnswerSubject,
  time: number,
  started: number,
  reply: Reply,
  error: ApiError | null,
): Reply {
  const { contract } = subject
  context.journal.record({
    time,
    method: request.method,
    path: request.target,
    status: reply.status,
    duration: elapsedSince(started),
    operation: subject.operation,
    orderId: subject.orderId,
    sessionRecreated: context.sessionRecreated,
    contract,
    // Read only for a pact's requests: the others need none of it.
    given: contract ? subject.given : null,
    authorization: contract ? subject.authorization : null,
    code: contract && error !== null ? error.code : null,
    message: contract && error !== null ? error.message : null,
  })
  return reply
}

/** A failure as the Error body to answer; what is no `ApiError` (a bug, a broken environment) is reported too. */
function settleFailure(
  context: AnswerContext,
  request: SimRequest,
  subject: AnswerSubject,
  time: number,
  started: number,
  error: unknown,
): Reply {
  if (!(error instanceof ApiError)) context.report(error, request)
  return settle(context, request, subject, time, started, errorReply(error, subject.headers), error instanceof ApiError ? error : null)
}

function produceWithin(over: boolean, limit: number, produce: () => Reply | Promise<Reply>): Reply | Promise<Reply> {
  // A transport limit, so it comes before authentication, as in any HTTP server.
  if (over) throw payloadTooLarge(limit)
  return produce()
}

/**
 * Answers one request and records it in the journal. Every failure, expected
 * or not, leaves as an Error body, never a stack trace. Synchronous when the
 * request's body check and `produce` are: no promise or microtask on the
 * common path.
 */
export function answer(
  context: AnswerContext,
  request: SimRequest,
  subject: AnswerSubject,
  produce: () => Reply | Promise<Reply>,
): Reply | Promise<Reply> {
  const time = Date.now()
  const started = performance.now()
  let produced: Reply | Promise<Reply>
  try {
    const over = request.bodyExceeds(context.bodyLimit)
    produced =
      typeof over === 'boolean'
        ? produceWithin(over, context.bodyLimit, produce)
        : over.then((exceeds) => produceWithin(exceeds, context.bodyLimit, produce))
  } catch (error) {
    return settleFailure(context, request, subject, time, started, error)
  }
  if (!(produced instanceof Promise)) return settle(context, request, subject, time, started, produced, null)
  return produced.then(
    (reply) => settle(context, request, subject, time, started, reply, null),
    (error: unknown) => settleFailure(context, request, subject, time, started, error),
  )
}
