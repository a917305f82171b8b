import { ApiError } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { matchRoute } from '../operations/routing.js'
import { forward } from '../proxy/forward.js'
import type { ProxySetup } from '../proxy/proxy-option.js'
import { recordedRoute } from '../proxy/record.js'
import type { Reply } from '../reply.js'
import { createRouteTable, routeReply } from '../routes/route-table.js'
import type { Instance, RequestContext } from './request-context.js'

// What answers a request under the base that no spec operation takes, before its 404 or 405
// (docs/proxy.md): a scenario's route; else, with a proxy, the real deployment. Loaded only when a
// state has routes or the simulator a proxy (steps.ts, `beyondSpec`): a page without them never carries it.

/** The request's path and query under the base ("/store/inventory?x=1"; "" for the base itself). */
function underBase(context: RequestContext): string {
  return context.request.target.slice(context.setup.base.path.length)
}

/** The path alone, under the base, as routes match it. */
function pathUnderBase(context: RequestContext): string {
  const rest = (context.url?.pathname ?? '').slice(context.setup.base.path.length)
  return rest === '' ? '/' : rest
}

/** A scenario's route for this method and path: its answer, after the key check unless it says `"auth": false`. The table is made per request: only requests no operation takes pay for it. */
function answerRoute(context: RequestContext, instance: Instance): Reply | undefined {
  const match = createRouteTable(instance.routes.list()).match(context.request.method, pathUnderBase(context))
  if (match === null) return undefined
  if (match.route.auth !== false) {
    context.authorization = context.request.header('Authorization')
    context.setup.checkKey(context.authorization, instance.settings().acceptedKeys)
  }
  return routeReply(match.route)
}

/** With a proxy: the same path and query under its target, and what comes back (a bounded failure as its Error answer). */
async function forwardRequest(context: RequestContext, instance: Instance, proxy: ProxySetup): Promise<Reply> {
  const { request } = context
  const target = underBase(context)
  const body = await request.body()
  const answer = await forward(
    {
      method: request.method,
      target,
      headers: request.headerPairs(),
      body,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    },
    { target: proxy.target, ...(proxy.key === undefined ? {} : { key: proxy.key }), timeoutMs: proxy.timeoutMs, time: context.setup.time },
  )
  context.forwarded = true
  if (proxy.record) {
    const decision = recordedRoute({ method: request.method, target, answer }, proxy.key)
    // The first answer per method and path is kept: one a route answers already is not.
    const answered =
      'route' in decision && createRouteTable(instance.routes.list()).match(decision.route.method, decision.route.path) !== null
    if ('route' in decision && !answered) instance.routes.add(decision.route)
  }
  return { status: answer.status, headers: answer.headers, body: answer.body, setCookie: answer.setCookie }
}

/**
 * Without a proxy, a path some route takes with other methods: its 405, whose Allow names every
 * method the path answers (the spec operation's and the routes'), or an OPTIONS' 204 saying them.
 */
function notAllowed(context: RequestContext, instance: Instance): Reply | undefined {
  const methods = createRouteTable(instance.routes.list()).methodsAt(pathUnderBase(context))
  if (methods.length === 0 || context.url === null) return undefined
  const own = matchRoute(context.url, context.setup.base)?.operation.method
  const allow = [...new Set([...(own === undefined ? [] : [own]), ...methods])].join(', ')
  const { method } = context.request
  if (method === 'OPTIONS') return { status: 204, headers: { Allow: `${allow}, OPTIONS` }, body: null }
  throw new ApiError(405, ErrorCode.MethodNotAllowed, `${method} is not allowed on ${context.url.pathname}; use ${allow}.`, {
    Allow: allow,
  })
}

/** A route's answer, else the proxy target's, else a route path's 405; undefined when none takes the request (its 404 or 405 follows). */
export async function answerBeyondSpec(context: RequestContext, instance: Instance): Promise<Reply | undefined> {
  const routed = answerRoute(context, instance)
  if (routed !== undefined) return routed
  const { proxy } = context.setup
  return proxy === null ? notAllowed(context, instance) : forwardRequest(context, instance, proxy)
}
