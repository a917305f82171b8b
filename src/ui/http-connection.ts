import { adminClient } from '../core/admin/admin-client.js'
import { parseExactJson } from '../core/exact-json.js'
import { SESSION_HEADER } from '../core/simulator/sessions.js'
import type { PanelConnection, PanelEvent } from './connection.js'

/** How long to wait before reconnecting, growing to a few seconds while the server stays away. */
const RETRY_MS = [250, 500, 1000, 2000, 4000]

/** Reads `text/event-stream` chunks into events: `event: <name>` and `data: <JSON>` lines, a blank line after each. */
function eventParser(onEvent: (event: PanelEvent) => void): (chunk: string) => void {
  let buffer = ''
  return (chunk) => {
    const blocks = (buffer + chunk).split('\n\n')
    buffer = blocks.pop() ?? ''
    for (const lines of blocks.map((block) => block.split('\n'))) {
      const data = lines.flatMap((line) => (line.startsWith('data: ') ? [line.slice(6)] : [])).join('')
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message'
      if (data !== '') onEvent({ event, data: parseExactJson(data) })
    }
  }
}

/**
 * The panel's connection to the server it is served by: the admin API, and
 * `GET /__sim/events` read with fetch (EventSource cannot send the session
 * and token headers), reconnecting by itself when it drops.
 */
export function httpConnection(origin: string, token: () => string | undefined): PanelConnection {
  return {
    admin: (session) => adminClient(origin, { session, token: token() }),
    sessionsAlways: true,
    follow(session, onEvent, onStatus) {
      const stop = new AbortController()
      const headers = (key = token()): Record<string, string> => ({
        ...(session === '' ? {} : { [SESSION_HEADER]: session }),
        ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
      })
      void (async () => {
        for (let attempt = 0; !stop.signal.aborted; ) {
          try {
            const response = await fetch(`${origin}/__sim/events`, { headers: headers(), signal: stop.signal })
            if (response.status === 401) return onStatus('unauthorized')
            if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`)
            const [reader, feed] = [response.body.pipeThrough(new TextDecoderStream()).getReader(), eventParser(onEvent)]
            onStatus('live')
            attempt = 0
            for (let read = await reader.read(); !read.done; read = await reader.read()) feed(read.value)
          } catch {
            // Dropped or refused: said below, then tried again.
          }
          if (stop.signal.aborted) return
          onStatus('lost')
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]))
        }
      })()
      // The stream brings every change within its own watch period.
      return { stop: () => stop.abort(), look: () => undefined }
    },
  }
}
