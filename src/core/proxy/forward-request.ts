import type { Instance, ProxySetup, RequestContext } from '../dispatch/request-context.js'
import { pathText } from '../operations/api-path.js'
import type { Reply } from '../reply.js'
import { forward } from './forward.js'
import type { AnswerBudget } from './answer-budget.js'
import { recordInto } from './record.js'

// Forwarding and recording, bound by the Node platform (platform/node/proxy-option.ts): a page's
// platform has no proxy, so its bundle holds none of this code.

/**
 * The same path and query under the proxy target, and what comes back (a
 * bounded failure as its Error answer); with `record`, its answer kept as a
 * route. `budget` bounds the bytes of every answer being read at once (one per proxy setup).
 */
export async function forwardRequest(context: RequestContext, instance: Instance, proxy: ProxySetup, budget: AnswerBudget): Promise<Reply> {
  const { request } = context
  // The request's path and query under the base ("/store/inventory?x=1"; "" for the base itself).
  // The path it matched on (api-path.ts), never the raw target: no spelling reaches the target as another path.
  const query = request.target.indexOf('?')
  const target = `${context.path === null ? '' : pathText(context.path)}${query === -1 ? '' : request.target.slice(query)}`
  const body = await request.body()
  const options = {
    target: proxy.target,
    ...(proxy.key === undefined ? {} : { key: proxy.key }),
    timeoutMs: proxy.timeoutMs,
    time: context.setup.time,
    budget,
  }
  const answer = await forward(
    {
      method: request.method,
      target,
      headers: request.headerPairs(),
      body,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    },
    options,
  )
  // The book keeps the first answer per method, path and query, within the state's bounds.
  if (proxy.record) recordInto(instance.routes, { method: request.method, target, answer }, proxy.key, context.setup.base.path)
  return { status: answer.status, headers: answer.headers, body: answer.body, setCookie: answer.setCookie }
}
