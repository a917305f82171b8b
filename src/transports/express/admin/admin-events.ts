import type { RequestHandler } from 'express'
import { ApiError } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { stringifyExactJson } from '../../../core/exact-json.js'
import { internalsOf, type Revision } from '../../../core/simulator/internals.js'
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

/** The entries a watcher has not seen: the newest ones, or all of them (`reset`) after a clear or a wrap of the ring. */
function newEntries(view: SimulatorView, before: Revision | null, now: Revision) {
  const entries = view.journal.entries()
  const added = before === null ? Number.POSITIVE_INFINITY : now.recorded - before.recorded
  if (before === null || now.cleared !== before.cleared || added > entries.length) return { reset: true, entries }
  return { reset: false, entries: entries.slice(entries.length - added) }
}

/**
 * `GET /__sim/events`: server-sent events of one state (the session named by
 * X-Sim-Session, or the default one), each when it changes and once on
 * connect: `state` (scenario and orders), `requests` (new journal entries, or
 * all with `reset: true`), `controls` (latency, faults, rate limit) and
 * `sessions`. What the QA panel follows; `curl -N` can too.
 */
export function eventsRoute(sim: SimulatorCore, shutdown: AbortSignal | undefined): RequestHandler {
  const internals = internalsOf(sim)
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
    let seen: Revision | null = null
    let controls = ''
    let sessions = ''
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${stringifyExactJson(data)}\n\n`)
    const watch = () => {
      // A client that stopped reading: its unsent events would pile up without end.
      if (res.writableLength > MAX_UNSENT_BYTES) return void res.destroy()
      const now = internals.revision(sessionId)
      if (seen === null || now.orders !== seen.orders) send('state', view.state())
      if (seen === null || now.recorded !== seen.recorded || now.cleared !== seen.cleared) send('requests', newEntries(view, seen, now))
      seen = now
      // Compared as sent: both are small (at most MAX_FAULTS faults, the sessions' ids).
      const nextControls = stringifyExactJson({ latency: view.latency(), faults: view.faults(), rateLimit: view.rateLimit() })
      if (nextControls !== controls) res.write(`event: controls\ndata: ${nextControls}\n\n`)
      controls = nextControls
      const nextSessions = JSON.stringify(sim.sessions().map(({ id, scenario }) => ({ id, scenario })))
      if (nextSessions !== sessions) res.write(`event: sessions\ndata: ${nextSessions}\n\n`)
      sessions = nextSessions
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
