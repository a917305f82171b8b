import { errorReply } from '../api-error.js'
import { isUnderBase, type ApiBase } from '../operations/routing.js'
import { fromFetch } from './fetch-request.js'
import { parserRefusal } from './parser-refusal.js'
import type { SimFetchContext } from './glossary.js'
import { fetchResponse } from './sim-response.js'

/** `work`, or the signal's reason as soon as it aborts: a fetch gives up at once, whatever the simulator is doing. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason)
    signal.addEventListener('abort', abort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}

/** The TypeError of a request the simulated API does not take, saying how to let it through. */
function notSimulated(request: Request, base: ApiBase): TypeError {
  const api = base.origin === null ? `${base.path || '/'} on any origin` : `${base.origin}${base.path}`
  return new TypeError(
    `petstore-orders-simulator: sim.fetch has no answer for ${request.method} ${request.url}: it is not the simulated API (${api}). ` +
      'To send such requests on, give the simulator a fetch for them: createSimulator({ fallbackFetch: fetch }).',
  )
}

/**
 * One call of `sim.fetch`, answered by the same dispatcher every transport
 * calls: no msw, no network. It reads its input as Node's fetch does
 * (`new Request(input, init)`, so bad input throws the same TypeError), and
 * rejects as a real fetch would: with the signal's reason when it aborts,
 * with `TypeError: fetch failed` when a fault drops the connection.
 */
export async function simFetch(
  { dispatcher, base, fallbackFetch, report }: SimFetchContext,
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const request = new Request(input, init)
  // A signal the caller gave: a Request's own (a client's), or init's.
  const signal = init?.signal != null || input instanceof Request ? request.signal : undefined
  // Before anything is recorded, as a fetch whose signal has aborted never sends.
  signal?.throwIfAborted()
  const url = new URL(request.url)
  const target = url.pathname + url.search
  const href = url.href.replace(/#.*$/, '')
  // What the server's HTTP parser refuses never reaches the simulator, nor its journal.
  const refused = isUnderBase(url, base) ? parserRefusal(request.method, target, request.headers) : null
  if (refused !== null) return fetchResponse(errorReply(refused), request.method, href, signal)
  const pending = dispatcher.route(fromFetch(request, target), url)
  if (pending === null) {
    if (fallbackFetch === undefined) throw notSimulated(request, base)
    return fallbackFetch(request)
  }
  const reply = await (signal === undefined || !(pending instanceof Promise) ? pending : untilAborted(pending, signal))
  if (reply.networkError !== undefined) throw new TypeError('fetch failed', { cause: new Error(reply.networkError) })
  const unsendable = report === undefined ? undefined : (error: unknown) => report(error, { method: request.method, target })
  return fetchResponse(reply, request.method, href, signal, unsendable)
}
