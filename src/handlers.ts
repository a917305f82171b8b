import { http, type HttpHandler } from 'msw'
import { ApiError, toErrorResponse } from './api-error.js'
import { assertAuthorized, unauthorized } from './auth.js'
import { ErrorCode } from './error-codes.js'
import type { AfterCancel } from './glossary.js'
import { parseInt64, type Int64Key } from './int64.js'
import type { RequestJournal } from './journal.js'
import type { OrderStore } from './order-store.js'
import { isUnderBase, matchRoute, OPERATION_METHODS, type ApiBase, type OperationId } from './routes.js'
import { serializeOrders } from './serialize-orders.js'
import { faultError, type Controls } from './controls.js'
import { preferredStatus } from './prefer.js'

/** One state a request can act on: the simulator's own, or a session's. */
export interface HandlerInstance {
  store: OrderStore
  /** The active scenario's settings; replaced as a whole on reset. */
  settings(): {
    acceptedKeys: ReadonlySet<string>
    exposeStatus: boolean
    afterCancel: AfterCancel
    /** JSON bodies of the scenario's pets, by petId. */
    petBodies: ReadonlyMap<string, string>
  }
  /** Latency, faults and rate limit, all off until set. */
  controls: Controls
  /** Where every answered request is recorded. */
  journal: RequestJournal
}

/** What the handlers read from the simulator on every request. */
export interface HandlerContext {
  base: ApiBase
  /** The state a request acts on (X-Sim-Session picks a session's). Throws a 400 `ApiError` for a bad session id. */
  instanceFor(request: Request): HandlerInstance
  /** Where a request is recorded when it reaches no instance. */
  journal: RequestJournal
  /** `Deprecation` and `Sunset` headers of the deprecated pets operation. */
  deprecationHeaders: Readonly<Record<string, string>>
  /** Leave requests under the base that match no operation to other handlers instead of answering 404/405. */
  fallthrough: boolean
  /** Requests declaring a larger body (Content-Length) get 413, as the standalone server does. */
  bodyLimit: number
}

type Params = { param: string; path: string }
/** The operation itself, after the key was accepted. */
type Resolver = (args: { request: Request; param: string; orderId: Int64Key | null; instance: HandlerInstance }) => Response
/** The documented response for a status asked for with `Prefer: code=`, with no change of state. */
type Forced = (status: number, param: string, instance: HandlerInstance) => Response

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

/** The journal of the instance a request reaches, or the simulator's own when it reaches none. */
function journalFor(context: HandlerContext, request: Request): { journal: RequestJournal; bodyLimit: number } {
  try {
    return { journal: context.instanceFor(request).journal, bodyLimit: context.bodyLimit }
  } catch {
    return context
  }
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
  context: { journal: RequestJournal; bodyLimit: number },
  request: Request,
  path: string,
  operation: OperationId | null,
  orderId: Int64Key | null,
  errorHeaders: Readonly<Record<string, string>>,
  produce: () => Promise<Response>,
): Promise<Response> {
  const started = performance.now()
  const time = Date.now()
  let response: Response
  try {
    // A transport limit, so it comes before authentication, as in any HTTP server.
    if (await bodyExceeds(request, context.bodyLimit)) {
      throw new ApiError(413, ErrorCode.PayloadTooLarge, `The request body is larger than ${context.bodyLimit} bytes.`)
    }
    response = await produce()
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

/** Waits `ms`, or until the client gives up. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    }, { once: true })
  })
}

/** The bearer token as sent (valid or not), for counting requests per key. */
function tokenOf(request: Request): string {
  return (request.headers.get('Authorization') ?? '').replace(/^bearer\s+/i, '')
}

/** Sends a body in ten pieces spread over `durationMs`. */
async function slowBody(response: Response, durationMs: number): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer())
  const pieces = 10
  const size = Math.ceil(bytes.length / pieces)
  let index = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, durationMs / pieces))
      controller.enqueue(bytes.slice(index * size, (index + 1) * size))
      index++
      if (index * size >= bytes.length) controller.close()
    },
  })
  return new Response(bytes.length === 0 ? null : body, { status: response.status, headers: response.headers })
}

/** The body cut in half: valid JSON no more, for testing a client's parser error path. */
async function malformedBody(response: Response): Promise<Response> {
  const text = await response.text()
  return new Response(text.slice(0, Math.max(1, Math.floor(text.length / 2))), { status: response.status, headers: response.headers })
}

/** Builds the msw handler of one operation, with the controls (latency, faults, rate limit, Prefer) around it. */
function operation(context: HandlerContext, id: OperationId, resolve: Resolver, forced: Forced, errorHeaders: Readonly<Record<string, string>> = {}): HttpHandler {
  const method = OPERATION_METHODS[id] === 'DELETE' ? http.delete : http.get
  return method<Params>(
    ({ request }) => {
      const url = new URL(request.url)
      const match = matchRoute(url, context.base)
      return match?.operation === id ? { matches: true, params: { param: match.param ?? '', path: url.pathname + url.search } } : false
    },
    ({ request, params }) => {
      const orderId = id === 'cancelOrder' ? parseInt64(params.param) : null
      let instance: HandlerInstance
      try {
        instance = context.instanceFor(request)
      } catch (error) {
        return answer(context, request, params.path, id, orderId, errorHeaders, () => Promise.reject(error))
      }
      const { controls } = instance
      return answer({ journal: instance.journal, bodyLimit: context.bodyLimit }, request, params.path, id, orderId, errorHeaders, async () => {
        const delay = controls.delayFor(id)
        if (delay > 0) await sleep(delay, request.signal)
        const fault = controls.takeFault(id, orderId)
        if (fault?.kind === 'status') throw faultError(fault)
        if (fault?.kind === 'network') return Response.error()
        if (fault?.kind === 'hang') {
          // Until the client gives up (in process its abort reaches the request's
          // signal; over HTTP it closes the connection) or durationMs passes.
          await sleep(fault.durationMs ?? 600_000, request.signal)
          return Response.error()
        }
        // From here to the end of compute(): no await, so the status check
        // and the change of a cancel happen in one turn.
        const response = compute(request, params.param, orderId, instance)
        if (fault?.kind === 'slow-body') return slowBody(response, fault.durationMs ?? 2000)
        if (fault?.kind === 'malformed-json') return malformedBody(response)
        return response
      })
    },
  )

  function compute(request: Request, param: string, orderId: Int64Key | null, instance: HandlerInstance): Response {
    const { controls } = instance
    // Headers every answer gets, errors included: RateLimit ones while a
    // limit is set, Preference-Applied when Prefer chose the answer. Nothing
    // is allocated for them when neither is in play (the common case).
    let extra: Record<string, string> | undefined
    try {
      if (controls.rateLimit() !== null) extra = controls.consume(tokenOf(request))
      assertAuthorized(request, instance.settings().acceptedKeys)
      const preferred = preferredStatus(request, id)
      if (preferred === undefined) {
        const response = resolve({ request, param, orderId, instance })
        if (extra !== undefined) for (const [name, value] of Object.entries(extra)) response.headers.set(name, value)
        return response
      }
      extra = { ...extra, 'Preference-Applied': `code=${preferred}` }
      const response = forced(preferred, param, instance)
      for (const [name, value] of Object.entries(extra)) response.headers.set(name, value)
      return response
    } catch (error) {
      if (error instanceof ApiError && extra !== undefined) throw new ApiError(error.status, error.code, error.message, { ...error.headers, ...extra })
      throw error
    }
  }
}

/**
 * The msw handlers of the Petstore Orders Service: list orders, cancel an
 * order, and the deprecated get-pet operation.
 */
export function createHandlers(context: HandlerContext): HttpHandler[] {
  const { base } = context

  // The list body, serialised once per state version rather than once per request.
  const cache = new WeakMap<OrderStore, { version: number; exposeStatus: boolean; body: Uint8Array<ArrayBuffer> }>()
  const listBody = ({ store, settings }: HandlerInstance) => {
    const { exposeStatus } = settings()
    const version = store.version()
    let cached = cache.get(store)
    if (cached?.version !== version || cached.exposeStatus !== exposeStatus) {
      cached = { version, exposeStatus, body: new TextEncoder().encode(serializeOrders(store.all(), exposeStatus)) }
      cache.set(store, cached)
    }
    return cached.body
  }

  const preferredUnauthorized = () => unauthorized('Invalid API key (answered on request: Prefer: code=401).')
  const orderIdOf = (param: string) => parseInt64(param) ?? param

  const listOrders = operation(
    context,
    'listOrders',
    ({ instance }) => new Response(listBody(instance), { status: 200, headers: JSON_HEADERS }),
    // Prefer: the documented response for the status, with no change of state.
    (status, _param, instance) => {
      if (status === 401) throw preferredUnauthorized()
      return new Response(listBody(instance), { status: 200, headers: JSON_HEADERS })
    },
  )

  const cancelOrder = operation(context, 'cancelOrder', ({ param, orderId: id, instance }) => {
    const { store } = instance
    const settings = instance.settings()
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
  }, (status, param) => {
    switch (status) {
      case 204:
        return new Response(null, { status: 204 })
      case 400:
        throw new ApiError(400, ErrorCode.InvalidOrderId, `Invalid order id ${quote(param)} (answered on request: Prefer: code=400).`)
      case 401:
        throw preferredUnauthorized()
      case 404:
        throw new ApiError(404, ErrorCode.OrderNotFound, `Order ${orderIdOf(param)} was not found (answered on request: Prefer: code=404).`)
      default:
        throw new ApiError(409, ErrorCode.OrderAlreadyShipped, `Order ${orderIdOf(param)} has already shipped and cannot be cancelled (answered on request: Prefer: code=409).`)
    }
  })

  const petResponse = (body: string) => new Response(body, { status: 200, headers: { ...context.deprecationHeaders, ...JSON_HEADERS } })
  const getPetById = operation(
    context,
    'getPetById',
    ({ param, instance }) => {
      const body = instance.settings().petBodies.get(param)
      if (body === undefined) {
        throw new ApiError(404, ErrorCode.PetNotFound, `Pet ${quote(param)} was not found in this scenario.`)
      }
      return petResponse(body)
    },
    (status, param, instance) => {
      if (status === 401) throw preferredUnauthorized()
      if (status === 404) throw new ApiError(404, ErrorCode.PetNotFound, `Pet ${quote(param)} was not found (answered on request: Prefer: code=404).`)
      return petResponse(instance.settings().petBodies.get(param) ?? '{}')
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
      answer(journalFor(context, request), request, pathOf(request), null, null, {}, async () => {
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
