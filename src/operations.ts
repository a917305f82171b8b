import { ApiError, errorReply } from './api-error.js'
import { assertAuthorized, unauthorized } from './auth.js'
import { faultError } from './controls.js'
import { ErrorCode } from './error-codes.js'
import type { AfterCancel } from './glossary.js'
import { parseInt64, type Int64Key } from './int64.js'
import type { RequestJournal } from './journal.js'
import type { OrderStore } from './order-store.js'
import { preferredStatus } from './prefer.js'
import { isUnderBase, matchRoute, OPERATION_METHODS, type ApiBase, type OperationId } from './routes.js'
import { serializeOrders } from './serialize-orders.js'
import type { Controls } from './controls.js'

/**
 * What the operations read of a request, whatever carried it: a Fetch
 * `Request` in msw's handlers, Node's `IncomingMessage` in the standalone
 * server. Building neither from the other is what keeps the server fast.
 */
export interface SimRequest {
  readonly method: string
  /** The URL path and query as sent, for the journal. */
  readonly target: string
  /** A header's value, repeated ones joined with ", " as Fetch joins them; null when absent. */
  header(name: string): string | null
  /** Aborts when the client gives up; a latency or a hang ends then. */
  readonly signal: AbortSignal | undefined
  /** True when the body is larger than `limit` bytes (a transport limit, checked before anything else). */
  bodyExceeds(limit: number): boolean | Promise<boolean>
}

/** An answer, ready for a transport to send. */
export interface Reply {
  status: number
  headers: Readonly<Record<string, string>>
  body: Uint8Array | string | null
  /** A network failure: reset the connection (over HTTP) or fail the fetch (in process) instead of answering. */
  networkError?: true
  /** Send the body in ten pieces spread over this many ms (a `slow-body` fault). */
  paceMs?: number
}

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
  /** Set on a session that had been dropped and was made afresh, until its first journal entry says so. */
  recreatedUnannounced?: boolean
}

/** Whether the journal entry of this request must say its session was recreated (true once). */
function announceRecreated(instance: HandlerInstance): boolean {
  if (instance.recreatedUnannounced !== true) return false
  instance.recreatedUnannounced = false
  return true
}

/** What the operations read from the simulator on every request. */
export interface HandlerContext {
  base: ApiBase
  /**
   * The state a request acts on (X-Sim-Session picks a session's). Throws a
   * 400 `ApiError` for a bad session id, and the 401 of the key check when
   * the session does not exist and the key would not be accepted.
   */
  instanceFor(request: SimRequest): HandlerInstance
  /** Where a request is recorded when it reaches no instance. */
  journal: RequestJournal
  /** `Deprecation` and `Sunset` headers of the deprecated pets operation. */
  deprecationHeaders: Readonly<Record<string, string>>
  /** Leave requests under the base that match no operation to other handlers instead of answering 404/405. */
  fallthrough: boolean
  /** Requests declaring a larger body (Content-Length) get 413, as the standalone server does. */
  bodyLimit: number
}

/** The service's operations, answered from plain values. */
export interface Operations {
  /** Answers one operation (the method already matched). `param` is the decoded path parameter, if any. */
  operation(request: SimRequest, id: OperationId, param: string): Promise<Reply>
  /** Answers a request under the base that no operation takes: 405 with `Allow` on a known path, 404 elsewhere. */
  unknown(request: SimRequest, url: URL): Promise<Reply>
  /** False when requests that match no operation are left to others (`fallthrough`, or a bare "/" base). */
  readonly answersUnknown: boolean
  /**
   * Answers any request: an operation, or the 404/405 of an unknown one under
   * the base. Null when the request is not the API's (another origin or path,
   * or an unknown one with `fallthrough`).
   */
  route(request: SimRequest, url: URL): Promise<Reply> | null
}

const JSON_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json' }

/** Quotes a client-supplied value for an error message, cut short when long. */
function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
}

/** Waits `ms`, or until the client gives up. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    }, { once: true })
  })
}

/** The bearer token as sent (valid or not), for counting requests per key. */
function tokenOf(request: SimRequest): string {
  return (request.header('Authorization') ?? '').replace(/^bearer\s+/i, '')
}

const NETWORK_ERROR: Reply = { status: 0, headers: {}, body: null, networkError: true }

/** The body cut in half: valid JSON no more, for testing a client's parser error path. */
function malformed(reply: Reply): Reply {
  // A 204 has no body to break.
  if (reply.body === null) return reply
  const text = typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body ?? new Uint8Array())
  return { ...reply, body: text.slice(0, Math.max(1, Math.floor(text.length / 2))) }
}

/**
 * Answers one request and records it in the journal. Every failure, expected
 * or not, leaves as an Error body, never a stack trace.
 */
async function answer(
  context: { journal: RequestJournal; bodyLimit: number; sessionRecreated?: boolean },
  request: SimRequest,
  operation: OperationId | null,
  orderId: Int64Key | null,
  errorHeaders: Readonly<Record<string, string>>,
  produce: () => Reply | Promise<Reply>,
): Promise<Reply> {
  const started = performance.now()
  const time = Date.now()
  let reply: Reply
  try {
    // A transport limit, so it comes before authentication, as in any HTTP server.
    if (await request.bodyExceeds(context.bodyLimit)) {
      throw new ApiError(413, ErrorCode.PayloadTooLarge, `The request body is larger than ${context.bodyLimit} bytes.`)
    }
    reply = await produce()
  } catch (error) {
    reply = errorReply(error, errorHeaders)
  }
  context.journal.record({
    time,
    method: request.method,
    path: request.target,
    status: reply.status,
    duration: Math.round((performance.now() - started) * 1000) / 1000,
    operation,
    orderId,
    sessionRecreated: context.sessionRecreated ?? false,
  })
  return reply
}

/** The operation itself, after the key was accepted. */
type Resolve = (param: string, orderId: Int64Key | null, instance: HandlerInstance) => Reply | Promise<Reply>
/** The documented response for a status asked for with `Prefer: code=`, with no change of state. */
type Forced = (status: number, param: string, instance: HandlerInstance) => Reply

interface OperationDefinition {
  resolve: Resolve
  forced: Forced
  /** Headers every answer carries, errors included (the pets operation's deprecation). */
  errorHeaders: Readonly<Record<string, string>>
}

/** Creates the operations of the Petstore Orders Service over a simulator's state. */
export function createOperations(context: HandlerContext): Operations {
  const { base } = context

  // The list body, serialised once per state version rather than once per request.
  const cache = new WeakMap<OrderStore, { version: number; exposeStatus: boolean; body: Uint8Array }>()
  const listBody = ({ store, settings }: HandlerInstance): Uint8Array => {
    const { exposeStatus } = settings()
    const version = store.version()
    let cached = cache.get(store)
    if (cached?.version !== version || cached.exposeStatus !== exposeStatus) {
      cached = { version, exposeStatus, body: new TextEncoder().encode(serializeOrders(store.all(), exposeStatus)) }
      cache.set(store, cached)
    }
    return cached.body
  }
  const listReply = (instance: HandlerInstance): Reply => ({ status: 200, headers: JSON_HEADERS, body: listBody(instance) })

  const preferredUnauthorized = () => unauthorized('Invalid API key (answered on request: Prefer: code=401).')
  const orderIdOf = (param: string) => parseInt64(param) ?? param
  const noContent = (): Reply => ({ status: 204, headers: {}, body: null })
  const petHeaders = { ...context.deprecationHeaders, ...JSON_HEADERS }

  const definitions: Record<OperationId, OperationDefinition> = {
    listOrders: {
      resolve: (_param, _orderId, instance) => listReply(instance),
      forced: (status, _param, instance) => {
        if (status === 401) throw preferredUnauthorized()
        return listReply(instance)
      },
      errorHeaders: {},
    },
    cancelOrder: {
      resolve: (param, id, instance) => {
        if (id === null) {
          throw new ApiError(400, ErrorCode.InvalidOrderId, `Invalid order id ${quote(param)}: an order id is a decimal integer between -9223372036854775808 and 9223372036854775807.`)
        }
        // The check and the change as one step of the store: concurrent
        // cancels of one order see exactly one 204.
        return instance.store.change(async (orders) => {
          const order = orders.find(id)
          if (order === undefined) {
            throw new ApiError(404, ErrorCode.OrderNotFound, `Order ${id} was not found.`)
          }
          if (order.status === 'shipped') {
            throw new ApiError(409, ErrorCode.OrderAlreadyShipped, `Order ${id} has already shipped and cannot be cancelled.`)
          }
          if (order.status !== 'pending') {
            throw new ApiError(409, ErrorCode.OrderNotPending, `Order ${id} is ${order.status}; only a pending order can be cancelled.`)
          }
          if (instance.settings().afterCancel === 'remove') {
            orders.remove(id)
          } else {
            await orders.setStatus(id, 'cancelled')
          }
          return noContent()
        })
      },
      forced: (status, param) => {
        switch (status) {
          case 204:
            return noContent()
          case 400:
            throw new ApiError(400, ErrorCode.InvalidOrderId, `Invalid order id ${quote(param)} (answered on request: Prefer: code=400).`)
          case 401:
            throw preferredUnauthorized()
          case 404:
            throw new ApiError(404, ErrorCode.OrderNotFound, `Order ${orderIdOf(param)} was not found (answered on request: Prefer: code=404).`)
          default:
            throw new ApiError(409, ErrorCode.OrderAlreadyShipped, `Order ${orderIdOf(param)} has already shipped and cannot be cancelled (answered on request: Prefer: code=409).`)
        }
      },
      errorHeaders: {},
    },
    getPetById: {
      resolve: (param, _orderId, instance) => {
        const body = instance.settings().petBodies.get(param)
        if (body === undefined) {
          throw new ApiError(404, ErrorCode.PetNotFound, `Pet ${quote(param)} was not found in this scenario.`)
        }
        return { status: 200, headers: petHeaders, body }
      },
      forced: (status, param, instance) => {
        if (status === 401) throw preferredUnauthorized()
        if (status === 404) throw new ApiError(404, ErrorCode.PetNotFound, `Pet ${quote(param)} was not found (answered on request: Prefer: code=404).`)
        return { status: 200, headers: petHeaders, body: instance.settings().petBodies.get(param) ?? '{}' }
      },
      errorHeaders: context.deprecationHeaders,
    },
  }

  /** The key check, Prefer and the operation, with the RateLimit headers around them. */
  async function compute(request: SimRequest, id: OperationId, param: string, orderId: Int64Key | null, instance: HandlerInstance): Promise<Reply> {
    const { controls } = instance
    const definition = definitions[id]
    // Headers every answer gets, errors included: RateLimit ones while a
    // limit is set, Preference-Applied when Prefer chose the answer. Nothing
    // is allocated for them when neither is in play (the common case).
    let extra: Record<string, string> | undefined
    try {
      if (controls.rateLimit() !== null) {
        const token = tokenOf(request)
        extra = controls.consume(token, instance.settings().acceptedKeys.has(token))
      }
      assertAuthorized(request.header('Authorization'), instance.settings().acceptedKeys)
      const preferred = preferredStatus(request.header('Prefer'), id)
      if (preferred === undefined) {
        const reply = await definition.resolve(param, orderId, instance)
        return extra === undefined ? reply : { ...reply, headers: { ...reply.headers, ...extra } }
      }
      extra = { ...extra, 'Preference-Applied': `code=${preferred}` }
      const reply = definition.forced(preferred, param, instance)
      return { ...reply, headers: { ...reply.headers, ...extra } }
    } catch (error) {
      if (error instanceof ApiError && extra !== undefined) throw new ApiError(error.status, error.code, error.message, { ...error.headers, ...extra })
      throw error
    }
  }

  function operation(request: SimRequest, id: OperationId, param: string): Promise<Reply> {
    const { errorHeaders } = definitions[id]
    const orderId = id === 'cancelOrder' ? parseInt64(param) : null
    let instance: HandlerInstance
    try {
      instance = context.instanceFor(request)
    } catch (error) {
      return answer(context, request, id, orderId, errorHeaders, () => Promise.reject(error))
    }
    const { controls } = instance
    return answer({ journal: instance.journal, bodyLimit: context.bodyLimit, sessionRecreated: announceRecreated(instance) }, request, id, orderId, errorHeaders, async () => {
      const delay = controls.delayFor(id)
      if (delay > 0) await sleep(delay, request.signal)
      const fault = controls.takeFault(id, orderId)
      if (fault?.kind === 'status') throw faultError(fault)
      if (fault?.kind === 'network') return NETWORK_ERROR
      if (fault?.kind === 'hang') {
        // Until the client gives up (its abort reaches the request's signal)
        // or durationMs passes.
        await sleep(fault.durationMs ?? 600_000, request.signal)
        return NETWORK_ERROR
      }
      const reply = await compute(request, id, param, orderId, instance)
      if (fault?.kind === 'slow-body') return { ...reply, paceMs: fault.durationMs ?? 2000 }
      if (fault?.kind === 'malformed-json') return malformed(reply)
      return reply
    })
  }

  const operations = `GET ${base.path}/store/orders, DELETE ${base.path}/store/orders/{orderId} and GET ${base.path}/pets/{petId}`
  /** The journal of the instance a request reaches, or the simulator's own when it reaches none. */
  function journalFor(request: SimRequest): { journal: RequestJournal; bodyLimit: number; sessionRecreated?: boolean } {
    try {
      const instance = context.instanceFor(request)
      return { journal: instance.journal, bodyLimit: context.bodyLimit, sessionRecreated: announceRecreated(instance) }
    } catch {
      return context
    }
  }

  function unknown(request: SimRequest, url: URL): Promise<Reply> {
    return answer(journalFor(request), request, null, null, {}, () => {
      const match = matchRoute(url, base)
      if (match !== null) {
        const allowed = OPERATION_METHODS[match.operation]
        if (request.method === 'OPTIONS') {
          // What the standalone server answers too: the path's methods, no body.
          return { status: 204, headers: { Allow: `${allowed}, OPTIONS` }, body: null }
        }
        throw new ApiError(405, ErrorCode.MethodNotAllowed, `${request.method} is not allowed on ${url.pathname}; use ${allowed}.`, { Allow: allowed })
      }
      throw new ApiError(404, ErrorCode.NotFound, `No operation at ${request.method} ${quote(url.pathname)}. The simulated operations are ${operations}.`)
    })
  }

  // Under a bare "/" on any origin there is nothing to scope a catch-all by:
  // it would take every request the test process makes.
  const answersUnknown = !context.fallthrough && (base.origin !== null || base.path !== '')
  return {
    operation,
    unknown,
    answersUnknown,
    route(request, url) {
      const match = matchRoute(url, base)
      if (match !== null && request.method === OPERATION_METHODS[match.operation]) {
        return operation(request, match.operation, match.param ?? '')
      }
      return answersUnknown && isUnderBase(url, base) ? unknown(request, url) : null
    },
  }
}
