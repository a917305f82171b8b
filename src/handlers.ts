import { http, type HttpHandler } from 'msw'
import { ApiError, toErrorResponse } from './api-error.js'
import { assertAuthorized } from './auth.js'
import { ErrorCode } from './error-codes.js'
import type { AfterCancel } from './glossary.js'
import { parseInt64, type Int64Key } from './int64.js'
import type { RequestJournal } from './journal.js'
import type { OrderStore } from './order-store.js'
import { isUnderBase, matchRoute, OPERATION_METHODS, type ApiBase, type OperationId } from './routes.js'
import { serializeOrders } from './serialize-orders.js'

/** What the handlers read from the simulator on every request. */
export interface HandlerContext {
  base: ApiBase
  store: OrderStore
  /** The active scenario's settings; replaced as a whole on reset. */
  settings(): {
    acceptedKeys: ReadonlySet<string>
    exposeStatus: boolean
    afterCancel: AfterCancel
    /** JSON bodies of the scenario's pets, by petId. */
    petBodies: ReadonlyMap<string, string>
  }
  /** `Deprecation` and `Sunset` headers of the deprecated pets operation. */
  deprecationHeaders: Readonly<Record<string, string>>
  /** Leave requests under the base that match no operation to other handlers instead of answering 404/405. */
  fallthrough: boolean
  /** Where every answered request is recorded. */
  journal: RequestJournal
  /** Requests declaring a larger body (Content-Length) get 413, as the standalone server does. */
  bodyLimit: number
}

type Params = { param: string; path: string }
type Resolver = (args: { request: Request; param: string }) => Response

/**
 * The size of a request body, read no further than one byte past `limit`.
 * Fetch computes Content-Length only when sending, so in process the header
 * is absent and the body itself has to be measured.
 */
async function bodyExceeds(request: Request, limit: number): Promise<boolean> {
  const declared = request.headers.get('Content-Length')
  if (declared !== null) return Number(declared) > limit
  if (request.body === null) return false
  const reader = request.body.getReader()
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return false
    size += value.byteLength
    if (size > limit) {
      // Not awaited: msw hands handlers a tee'd body, and cancelling one branch
      // of a tee settles only once the other branch is cancelled too.
      void reader.cancel().catch(() => undefined)
      return true
    }
  }
}

const JSON_HEADERS = { 'Content-Type': 'application/json' }

function pathOf(request: Request): string {
  const url = new URL(request.url)
  return url.pathname + url.search
}

/** Quotes a client-supplied value for an error message, cut short when long. */
function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
}

/**
 * Answers one request and records it in the journal. Every failure, expected
 * or not, leaves as an Error body: msw's own answer to a throwing resolver
 * would be a 500 that exposes the stack.
 */
async function answer(
  context: Pick<HandlerContext, 'journal' | 'bodyLimit'>,
  request: Request,
  path: string,
  operation: OperationId | null,
  compute: () => Response,
  errorHeaders: Readonly<Record<string, string>> = {},
  orderId: Int64Key | null = null,
): Promise<Response> {
  const started = performance.now()
  const time = Date.now()
  let response: Response
  try {
    // A transport limit, so it comes before authentication, as in any HTTP server.
    if (await bodyExceeds(request, context.bodyLimit)) {
      throw new ApiError(413, ErrorCode.PayloadTooLarge, `The request body is larger than ${context.bodyLimit} bytes.`)
    }
    // compute() runs in one turn, with no await inside: concurrent cancels of
    // one order cannot interleave between the status check and the change.
    response = compute()
  } catch (error) {
    response = toErrorResponse(error, errorHeaders)
  }
  if (request.method === 'HEAD') {
    // As an HTTP server would: the status and headers of the answer, no body.
    response = new Response(null, { status: response.status, headers: response.headers })
  }
  context.journal.record({
    time,
    method: request.method,
    path,
    status: response.status,
    duration: Math.round((performance.now() - started) * 1000) / 1000,
    operation,
    orderId,
  })
  return response
}

/** Builds the msw handler of one operation. */
function operation(context: HandlerContext, id: OperationId, resolve: Resolver, errorHeaders: Readonly<Record<string, string>> = {}): HttpHandler {
  const method = OPERATION_METHODS[id] === 'DELETE' ? http.delete : http.get
  return method<Params>(
    ({ request }) => {
      const url = new URL(request.url)
      const match = matchRoute(url, context.base)
      return match?.operation === id ? { matches: true, params: { param: match.param ?? '', path: url.pathname + url.search } } : false
    },
    ({ request, params }) =>
      answer(context, request, params.path, id, () => resolve({ request, param: params.param }), errorHeaders, id === 'cancelOrder' ? parseInt64(params.param) : null),
  )
}

/**
 * The msw handlers of the Petstore Orders Service: list orders, cancel an
 * order, and the deprecated get-pet operation.
 */
export function createHandlers(context: HandlerContext): HttpHandler[] {
  const { base, store } = context

  // The list body, serialised once per state version rather than once per request.
  let cached: { version: number; exposeStatus: boolean; body: Uint8Array<ArrayBuffer> } | undefined
  const listBody = (exposeStatus: boolean) => {
    const version = store.version()
    if (cached?.version !== version || cached.exposeStatus !== exposeStatus) {
      cached = { version, exposeStatus, body: new TextEncoder().encode(serializeOrders(store.all(), exposeStatus)) }
    }
    return cached.body
  }

  const listOrders = operation(context, 'listOrders', ({ request }) => {
    const settings = context.settings()
    assertAuthorized(request, settings.acceptedKeys)
    return new Response(listBody(settings.exposeStatus), { status: 200, headers: JSON_HEADERS })
  })

  const cancelOrder = operation(context, 'cancelOrder', ({ request, param }) => {
    const settings = context.settings()
    assertAuthorized(request, settings.acceptedKeys)
    const id = parseInt64(param)
    if (id === null) {
      throw new ApiError(400, ErrorCode.InvalidOrderId, `Invalid order id ${quote(param)}: an order id is a decimal integer between -9223372036854775808 and 9223372036854775807.`)
    }
    // No await from here on: the check and the change happen in one turn,
    // so concurrent cancels of one order see exactly one 204.
    const order = store.find(id)
    if (order === undefined) {
      throw new ApiError(404, ErrorCode.OrderNotFound, `Order ${id} was not found.`)
    }
    if (order.status === 'shipped') {
      throw new ApiError(409, ErrorCode.OrderAlreadyShipped, `Order ${id} has already shipped and cannot be cancelled.`)
    }
    if (order.status !== 'pending') {
      throw new ApiError(409, ErrorCode.OrderNotPending, `Order ${id} is ${order.status}; only a pending order can be cancelled.`)
    }
    if (settings.afterCancel === 'remove') {
      store.remove(id)
    } else {
      store.setStatus(id, 'cancelled')
    }
    return new Response(null, { status: 204 })
  })

  const getPetById = operation(
    context,
    'getPetById',
    ({ request, param }) => {
      const settings = context.settings()
      assertAuthorized(request, settings.acceptedKeys)
      const body = settings.petBodies.get(param)
      if (body === undefined) {
        throw new ApiError(404, ErrorCode.PetNotFound, `Pet ${quote(param)} was not found in this scenario.`)
      }
      return new Response(body, { status: 200, headers: { ...context.deprecationHeaders, ...JSON_HEADERS } })
    },
    context.deprecationHeaders,
  )

  const handlers = [listOrders, cancelOrder, getPetById]
  // Under a bare "/" on any origin there is nothing to scope a catch-all by:
  // it would swallow every request the test process makes.
  if (!context.fallthrough && (base.origin !== null || base.path !== '')) {
    handlers.push(unknownPath(context))
  }
  return handlers
}

/**
 * Answers what a real server would for a request under the base that no
 * operation takes: 405 with `Allow` on a known path, 404 otherwise. It comes
 * last, so handlers placed before it (or added with `server.use()`) win.
 */
function unknownPath(context: HandlerContext): HttpHandler {
  const { base } = context
  const operations = `GET ${base.path}/store/orders, DELETE ${base.path}/store/orders/{orderId} and GET ${base.path}/pets/{petId}`
  return http.all(
    ({ request }) => isUnderBase(new URL(request.url), base),
    ({ request }) =>
      answer(context, request, pathOf(request), null, () => {
        const url = new URL(request.url)
        const match = matchRoute(url, base)
        if (match !== null) {
          const allowed = OPERATION_METHODS[match.operation]
          if (request.method === 'OPTIONS') {
            // What the standalone server answers too: the path's methods, no body.
            return new Response(null, { status: 204, headers: { Allow: `${allowed}, OPTIONS` } })
          }
          throw new ApiError(405, ErrorCode.MethodNotAllowed, `${request.method} is not allowed on ${url.pathname}; use ${allowed}.`, { Allow: allowed })
        }
        throw new ApiError(404, ErrorCode.NotFound, `No operation at ${request.method} ${quote(url.pathname)}. The simulated operations are ${operations}.`)
      }),
  )
}
