import { ApiError, errorReply, payloadTooLarge } from '../api-error.js'
import type { Int64Key } from '../int64.js'
import type { OperationId } from '../operations/registry.js'
import type { Given } from '../pact/provider-states.js'
import type { Reply, SimRequest } from '../reply.js'
import { arrival, elapsedSince, type JournalWriter } from '../state/journal.js'
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

/**
 * Answers one request and records it in the journal. Every failure, expected
 * or not, leaves as an Error body, never a stack trace.
 */
export async function answer(
  context: AnswerContext,
  request: SimRequest,
  subject: AnswerSubject,
  produce: () => Reply | Promise<Reply>,
): Promise<Reply> {
  const { time, started } = arrival()
  let reply: Reply
  let code: string | null = null
  let message: string | null = null
  try {
    // A transport limit, so it comes before authentication, as in any HTTP server.
    if (await request.bodyExceeds(context.bodyLimit)) throw payloadTooLarge(context.bodyLimit)
    reply = await produce()
  } catch (error) {
    if (error instanceof ApiError) {
      code = error.code
      message = error.message
    } else context.report(error, request)
    reply = errorReply(error, subject.headers)
  }
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
    code: contract ? code : null,
    message: contract ? message : null,
  })
  return reply
}
