import { ApiError } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { pathText } from '../operations/api-path.js'
import { matchRoute } from '../operations/routing.js'
import type { Reply } from '../reply.js'
import { routeReply } from '../routes/route-table.js'
import type { Instance, RequestContext } from './request-context.js'

// What answers a request under the base that no spec operation takes, before its 404 or 405
// (docs/proxy.md): a scenario's route; else, with a proxy, the real deployment. Loaded only when a
// state has routes or the simulator a proxy (steps.ts, `beyondSpec`): a page without them never carries it.
// Forwarding is the proxy's own (proxy/forward-request.ts): only Node.js builds have one.

/** The path alone, under the base, as routes match it. */
function pathUnderBase(context: RequestContext): string {
  // Read by the one path rule (api-path.ts): what a route matches is what would be forwarded.
  const path = context.path === null ? '' : pathText(context.path)
  return path === '' ? '/' : path
}

/** A scenario's route for this method and path: its answer, after the key check unless it says `"auth": false`. The state's table is compiled already (route-book.ts). */
function answerRoute(context: RequestContext, instance: Instance): Reply | undefined {
  const match = instance.routes.match(context.request.method, pathUnderBase(context))
  if (match === null) return undefined
  if (match.route.auth !== false) {
    context.authorization = context.request.header('Authorization')
    context.setup.checkKey(context.authorization, instance.settings().acceptedKeys)
  }
  return routeReply(match.route)
}

/**
 * Without a proxy, a path some route takes with other methods: its 405, whose Allow names every
 * method the path answers (the spec operation's and the routes'), or an OPTIONS' 204 saying them.
 */
function notAllowed(context: RequestContext, instance: Instance): Reply | undefined {
  const methods = instance.routes.methodsAt(pathUnderBase(context))
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
  return proxy === null ? notAllowed(context, instance) : proxy.forward(context, instance)
}
