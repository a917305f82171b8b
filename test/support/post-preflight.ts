import { KEY } from './harness.js'
import { send } from './raw-http.js'

/**
 * POST /v1/store/orders with a JSON body (no operation of the spec: a route's or the proxy's), then the
 * preflight a page on another origin sends before it: without POST allowed, the browser never sends it.
 */
export async function postThenPreflight(origin: string) {
  const created = await send(origin, '/v1/store/orders', {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: '{}',
  })
  const preflight = await send(origin, '/v1/store/orders', {
    method: 'OPTIONS',
    headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
  })
  return { created: created.status, preflight: preflight.status, allowed: String(preflight.headers['access-control-allow-methods']) }
}
