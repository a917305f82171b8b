import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../../core/api-error.js'
import { ErrorCode } from '../../core/error-codes.js'
import { sendError } from './node-edge.js'

/** What probes and load balancers call: no key, no admin token, any Host. */
const HEALTH_PATH = '/__sim/health'

/** Whether a request-target is the health check (a query is ignored). */
export function isHealthPath(target: string | undefined): boolean {
  if (target?.startsWith(HEALTH_PATH) !== true) return false
  return target.length === HEALTH_PATH.length || target[HEALTH_PATH.length] === '?'
}

/**
 * Answers `GET /__sim/health`: 200 `{"status":"ok","version"}` while the
 * server serves, 503 `{"status":"draining","version"}` once it is stopping,
 * so a balancer takes it out before it goes. Nothing about the state: any
 * caller may ask. The admin API's switch and token do not apply.
 */
export function createHealthCheck(version: string, draining: () => boolean): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(
        res,
        new ApiError(405, ErrorCode.MethodNotAllowed, `${req.method} is not allowed on ${HEALTH_PATH}; use GET.`, { Allow: 'GET' }),
      )
      return
    }
    const stopping = draining()
    const body = JSON.stringify({ status: stopping ? 'draining' : 'ok', version })
    res.writeHead(stopping ? 503 : 200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      ...(stopping ? { Connection: 'close' } : {}),
    })
    res.end(req.method === 'HEAD' ? undefined : body)
  }
}
