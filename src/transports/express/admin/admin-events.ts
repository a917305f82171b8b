import type { RequestHandler, Response } from 'express'
import { ApiError } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { stringifyExactJson } from '../../../core/exact-json.js'
import { type StateEvent, stateWatcher } from '../../../core/admin/state-watcher.js'
import { internalsOf } from '../../../core/simulator/internals.js'
import type { SimulatorCore, SimulatorView } from '../../../core/simulator/types.js'
import { sendError } from '../../node/node-edge.js'

/** How often a stream looks for changes: often enough that a cancel shows in the panel well within a second. */
const WATCH_MS = 200
/** A comment line now and then, so that proxies and browsers keep a quiet stream open. */
const KEEPALIVE_MS = 15_000
/** Event streams open at once, per server: each costs a timer and a little memory. */
export const MAX_EVENT_STREAMS = 16
/**
 * How long a stream may hold unsent events while its client takes none of
 * them before it is closed: such a client stopped reading. A slow reader that
 * takes some now and then stays, however large the state.
 */
const STALL_MS = 10_000
/** What one write hands the socket: a large event goes out piece by piece, so each stream holds a piece, not a copy of it. */
const PIECE_CHARS = 64 * 1024
/** States whose orders are kept as JSON text for the streams that follow them (up to 100,000 orders, about 11 MB, each). */
const KEPT_ORDER_TEXTS = 4

/**
 * Sends a stream's events through `res`, handing the socket a piece only when
 * it has room for it: a stream holds at most the events of one look beyond
 * what the socket holds, and shows whether its client still reads (each drain).
 */
function outbox(res: Response) {
  const queue: string[] = []
  let offset = 0
  // res.write answered false, and no drain came since: the socket holds enough.
  let full = false
  let progress = performance.now()
  const busy = () => full || queue.length > 0
  const pump = () => {
    for (let head = queue[0]; !full && head !== undefined; head = queue[0]) {
      let end = Math.min(offset + PIECE_CHARS, head.length)
      // Each piece becomes UTF-8 on its own: a surrogate pair must not be split between two.
      const last = head.charCodeAt(end - 1)
      if (end < head.length && last >= 0xd800 && last <= 0xdbff) end--
      const piece = offset === 0 && end === head.length ? head : head.slice(offset, end)
      if (end === head.length) {
        queue.shift()
        offset = 0
      } else offset = end
      full = !res.write(piece)
    }
  }
  res.on('drain', () => {
    full = false
    progress = performance.now()
    pump()
  })
  return {
    busy,
    /** Milliseconds since the client last took something, while there is something to send; 0 when idle. */
    stalledFor: () => (busy() ? performance.now() - progress : 0),
    send(parts: readonly string[]) {
      if (!busy()) progress = performance.now()
      queue.push(...parts)
      pump()
    },
    clear() {
      queue.length = 0
    },
  }
}

/**
 * The orders of the states streams follow, as JSON text made once per change
 * and shared: the text of 100,000 orders costs about half a second to make,
 * which every stream (and every reconnect) paid on its own.
 */
function orderTexts() {
  const kept = new Map<string | null, { stamp: string; text: string }>()
  return (sessionId: string | null, stamp: string, orders: unknown): string => {
    let entry = kept.get(sessionId)
    if (entry?.stamp !== stamp) entry = { stamp, text: stringifyExactJson(orders) }
    // Most recently used last, so the first is the one to forget.
    kept.delete(sessionId)
    kept.set(sessionId, entry)
    if (kept.size > KEPT_ORDER_TEXTS) kept.delete(kept.keys().next().value as string | null)
    return entry.text
  }
}

/**
 * `GET /__sim/events`, the events the admin table's streamEvents describes: what the QA panel follows.
 * While a stream is still sending, later changes wait and go together in the next events.
 */
export function eventsRoute(
  sim: SimulatorCore,
  shutdown: AbortSignal | undefined,
  limits: { stallMs: number } = { stallMs: STALL_MS },
): RequestHandler {
  let open = 0
  const internals = internalsOf(sim)
  const ordersText = orderTexts()
  /** Which orders a state event holds: a session made again (`created`) starts its counter over. */
  const stampOf = (sessionId: string | null) => {
    const created = sessionId === null ? '' : (sim.sessions().find((session) => session.id === sessionId)?.created ?? '')
    return `${created} ${internals.revision(sessionId).orders}`
  }
  /** An event as text, in parts: the orders of a state are one shared text, never copied per stream. */
  const partsOf = (sessionId: string | null, { event, data }: StateEvent): string[] => {
    if (event === 'state') {
      // Read in the same turn as the watcher's look, so the stamp is that of these orders.
      const { orders, ...rest } = data
      const head = stringifyExactJson(rest)
      return [
        `event: state\ndata: ${head === '{}' ? '{' : `${head.slice(0, -1)},`}"orders":`,
        ordersText(sessionId, stampOf(sessionId), orders),
        '}\n\n',
      ]
    }
    // The controls and sessions come as JSON text already.
    return [`event: ${event}\ndata: ${typeof data === 'string' ? data : stringifyExactJson(data)}\n\n`]
  }
  return (_req, res) => {
    const view = res.locals['view'] as SimulatorView
    const sessionId = res.locals['sessionId'] as string | null
    if (open >= MAX_EVENT_STREAMS) {
      const message = `At most ${MAX_EVENT_STREAMS} event streams may be open at once; close one (a panel tab, a curl -N) first.`
      sendError(res, new ApiError(503, ErrorCode.ServiceUnavailable, message, { 'Retry-After': '5' }))
      return
    }
    open++
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' })
    const look = stateWatcher(sim, sessionId, view)
    const out = outbox(res)
    const watch = () => {
      // A client that took nothing for so long stopped reading: the events it misses would pile up without end.
      if (out.stalledFor() > limits.stallMs) return void res.destroy()
      // Still sending earlier events: the next look, once they are out, reports what changed meanwhile.
      if (out.busy()) return
      const parts = look().flatMap((event) => partsOf(sessionId, event))
      if (parts.length > 0) out.send(parts)
    }
    const keepalive = () => {
      if (!out.busy()) out.send([': keepalive\n\n'])
    }
    const timers = [setInterval(watch, WATCH_MS), setInterval(keepalive, KEEPALIVE_MS)]
    function end(): void {
      for (const timer of timers) clearInterval(timer)
      shutdown?.removeEventListener('abort', end)
      // An event part way out would hold the close until a client that may not read takes it.
      if (out.busy()) res.destroy()
      else if (!res.writableEnded) res.end()
      out.clear()
    }
    shutdown?.addEventListener('abort', end, { once: true })
    res.once('close', () => {
      open--
      end()
    })
    watch()
  }
}
