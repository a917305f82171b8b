import { type AdminApi, parseJson } from './admin-api.js'

export type StreamStatus = 'live' | 'lost' | 'unauthorized'

/** How long to wait before reconnecting, growing to a few seconds while the server stays away. */
const RETRY_MS = [250, 500, 1000, 2000, 4000]

/** Reads `text/event-stream` chunks into (event, data) pairs. */
function eventParser(onEvent: (event: string, data: unknown) => void): (chunk: string) => void {
  let buffer = ''
  return (chunk) => {
    buffer += chunk
    let end = buffer.indexOf('\n\n')
    while (end !== -1) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      let event = 'message'
      let data = ''
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7)
        else if (line.startsWith('data: ')) data += line.slice(6)
      }
      if (data !== '') onEvent(event, parseJson(data))
      end = buffer.indexOf('\n\n')
    }
  }
}

/**
 * Follows `GET /__sim/events` of the api's session, reconnecting by itself
 * when the connection drops. Read with fetch, not EventSource, so that it can
 * send the session and token headers. Returns a function that stops it.
 */
export function followEvents(
  api: AdminApi,
  onEvent: (event: string, data: unknown) => void,
  onStatus: (status: StreamStatus) => void,
): () => void {
  const stop = new AbortController()
  void (async () => {
    let attempt = 0
    while (!stop.signal.aborted) {
      try {
        const response = await fetch('/__sim/events', { headers: api.headers(), signal: stop.signal })
        if (response.status === 401) {
          onStatus('unauthorized')
          api.onUnauthorized()
          return
        }
        if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`)
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
        const feed = eventParser(onEvent)
        onStatus('live')
        attempt = 0
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          feed(value)
        }
      } catch {
        // Dropped or refused: said below, then tried again.
      }
      if (stop.signal.aborted) return
      onStatus('lost')
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]))
    }
  })()
  return () => stop.abort()
}
