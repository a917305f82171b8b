import { ApiError } from '../api-error.js'
import type { KeyCheck } from '../bearer-auth.js'
import type { Controls } from '../controls/controls.js'
import type { Fault } from '../controls/faults.js'
import type { Int64Key } from '../int64.js'
import type { OperationState } from '../operations/operation.js'
import { preferredStatus } from '../operations/prefer.js'
import type { Operation } from '../operations/routing.js'
import type { Reply, SimRequest } from '../reply.js'
import type { JournalWriter } from '../state/journal.js'
import type { AnswerSubject } from './answer.js'
import { faultAfter, faultInstead } from './misbehaviour.js'

/** Headers no operation adds: compared by identity, so that no copy is made. */
export const EMPTY: Readonly<Record<string, string>> = {}

/** One independent state a request acts on: orders, settings, controls, journal. */
export interface Instance extends OperationState {
  controls: Controls
  journal: JournalWriter
  /** Set on a session that had been dropped and was made afresh, until its first journal entry says so. */
  recreatedUnannounced?: boolean
}

/** The bearer token as sent (valid or not), for counting requests per key. */
function tokenOf(request: SimRequest): string {
  return (request.header('Authorization') ?? '').replace(/^bearer\s+/i, '')
}

/** Headers added to an answer, errors included: RateLimit ones, Preference-Applied. */
function withHeaders(reply: Reply, extra: Record<string, string> | undefined): Reply {
  return extra === undefined ? reply : { ...reply, headers: { ...reply.headers, ...extra } }
}

/** An error of the key check or the operation, carrying the RateLimit headers too. */
function withExtraHeaders(error: unknown, extra: Record<string, string> | undefined): unknown {
  if (error instanceof ApiError && extra !== undefined)
    return new ApiError(error.status, error.code, error.message, { ...error.headers, ...extra })
  return error
}

/** The key check, `Prefer` and the operation, with the RateLimit headers around them; synchronous when the operation is. */
function keyedAnswer(
  request: SimRequest,
  operation: Operation,
  param: string,
  orderId: Int64Key | null,
  instance: Instance,
  subject: AnswerSubject,
  checkKey: KeyCheck,
): Reply | Promise<Reply> {
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
    checkKey(subject.authorization, instance.settings().acceptedKeys)
    const call = { param, orderId, state: instance }
    const preferred = preferredStatus(request.header('Prefer'), operation.id)
    if (preferred === undefined) {
      const reply = operation.answer(call)
      if (!(reply instanceof Promise)) return withHeaders(reply, extra)
      // `extra` is not changed past this return.
      return reply.then(
        (settled) => withHeaders(settled, extra),
        (error: unknown) => {
          throw withExtraHeaders(error, extra)
        },
      )
    }
    subject.contract = false
    extra = { ...extra, 'Preference-Applied': `code=${preferred}` }
    return withHeaders(operation.preferred(preferred, call), extra)
  } catch (error) {
    throw withExtraHeaders(error, extra)
  }
}

/** What a fault that let the request through makes of the answer, and the operation's own headers on it. */
function finished(reply: Reply, headers: Readonly<Record<string, string>>, fault: Fault | undefined): Reply {
  const whole = headers === EMPTY ? reply : { ...reply, headers: { ...headers, ...reply.headers } }
  return fault === undefined ? whole : faultAfter(fault, whole)
}

/** After the latency: a fault, else the key check and the operation. Synchronous when no fault fires and the operation is. */
export function afterDelay(
  request: SimRequest,
  definition: Operation,
  param: string,
  orderId: Int64Key | null,
  instance: Instance,
  subject: AnswerSubject,
  headers: Readonly<Record<string, string>>,
  checkKey: KeyCheck,
): Reply | Promise<Reply> {
  const fault = instance.controls.takeFault(definition.id, orderId)
  if (fault === undefined) {
    const reply = keyedAnswer(request, definition, param, orderId, instance, subject, checkKey)
    return reply instanceof Promise ? reply.then((settled) => finished(settled, headers, undefined)) : finished(reply, headers, undefined)
  }
  return (async () => {
    const instead = await faultInstead(fault, request.signal)
    if (instead !== undefined) return instead
    try {
      return finished(await keyedAnswer(request, definition, param, orderId, instance, subject, checkKey), headers, fault)
    } finally {
      // A fault that lets the answer through still changes it (slow or broken body): not the service's answer.
      subject.contract = false
    }
  })()
}
