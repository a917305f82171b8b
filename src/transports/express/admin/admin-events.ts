import type { RequestHandler } from 'express'
import { ApiError } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { stringifyExactJson } from '../../../core/exact-json.js'
import { stateWatcher } from '../../../core/admin/state-watcher.js'
import type { SimulatorCore, SimulatorView } from '../../../core/simulator/types.js'
import { sendError } from '../../node/node-edge.js'

/** How often a stream looks for changes: often enough that a cancel shows in the panel well within a second. */
const WATCH_MS = 200
/** A comment line now and then, so that proxies and browsers keep a quiet stream open. */
const KEEPALIVE_MS = 15_000
/** Event streams open at once, per server: each costs a timer and a little memory. */
export const MAX_EVENT_STREAMS = 16
/** Unsent bytes a stream may hold for a client that stopped reading before it is closed. */
const MAX_UNSENT_BYTES = 1024 * 1024

/**
 * `GET /__sim/events`: server-sent events of one state (the session named by
 * X-Sim-Session, or the default one), each when it changes and once on
 * connect: `state` (scenario and orders), `requests` (new journal entries, or
 * all with `reset: true`), `controls` (latency, faults, rate limit) and
 * `sessions`. What the QA panel follows; `curl -N` can too.
 */
export function eventsRoute(sim: SimulatorCore, shutdown: AbortSignal | undefined): RequestHandler {
  let open = 0
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
    const watch = () => {
      // A client that stopped reading: its unsent events would pile up without end.
      if (res.writableLength > MAX_UNSENT_BYTES) return void res.destroy()
      // The controls and sessions come as JSON text already.
      for (const { event, data } of look())
        res.write(`event: ${event}\ndata: ${typeof data === 'string' ? data : stringifyExactJson(data)}\n\n`)
    }
    const timers = [setInterval(watch, WATCH_MS), setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS)]
    function end(): void {
      for (const timer of timers) clearInterval(timer)
      shutdown?.removeEventListener('abort', end)
      if (!res.writableEnded) res.end()
    }
    shutdown?.addEventListener('abort', end, { once: true })
    res.once('close', () => {
      open--
      end()
    })
    watch()
  }
}
