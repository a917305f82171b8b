import { faultError, type Fault } from '../controls/faults.js'
import type { Reply } from '../reply.js'

/** A dropped connection, saying which fault dropped it (a client in process reads it as the fetch error's cause). */
function networkError(fault: Fault, what: string): Reply {
  return { status: 0, headers: {}, body: null, networkError: `Injected fault #${fault.id} (${fault.kind}) on ${fault.operation} ${what}.` }
}

const DEFAULT_HANG_MS = 600_000
const DEFAULT_SLOW_BODY_MS = 2000

/** Waits `ms`, or until the client gives up. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })
}

/** The body cut in half: valid JSON no more, for testing a client's parser error path. */
function malformed(reply: Reply): Reply {
  // A 204 has no body to break.
  if (reply.body === null) return reply
  const text = typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body)
  return { ...reply, body: text.slice(0, Math.max(1, Math.floor(text.length / 2))) }
}

/**
 * What a fault makes of a request: the answer it replaces the operation's
 * with (an error, a dropped connection, a hang), or undefined to go on.
 */
export async function faultInstead(fault: Fault | undefined, signal: AbortSignal | undefined): Promise<Reply | undefined> {
  if (fault?.kind === 'status') throw faultError(fault)
  if (fault?.kind === 'network') return networkError(fault, 'dropped the connection on purpose')
  if (fault?.kind === 'hang') {
    // Until the client gives up (its abort reaches the request's signal) or durationMs passes.
    const durationMs = fault.durationMs ?? DEFAULT_HANG_MS
    await sleep(durationMs, signal)
    return networkError(fault, `held the request ${durationMs} ms, then dropped the connection`)
  }
  return undefined
}

/** What a fault makes of the operation's answer once it is made. */
export function faultAfter(fault: Fault | undefined, reply: Reply): Reply {
  if (fault?.kind === 'slow-body') return { ...reply, paceMs: fault.durationMs ?? DEFAULT_SLOW_BODY_MS }
  if (fault?.kind === 'malformed-json') return malformed(reply)
  return reply
}
