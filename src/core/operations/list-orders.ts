import type { Reply } from '../reply.js'
import { serializeOrders } from '../state/serialize-orders.js'
import { JSON_HEADERS, preferredUnauthorized, type OperationDefinition, type OperationState } from './operation.js'

/** Keeps `made` as the state's list body, counted against a session's bound: past it, the body is made for each request instead. */
function keep(state: OperationState, made: NonNullable<OperationState['listCache']>): void {
  const { charge } = state
  if (charge !== undefined) {
    charge(-(state.listCache?.body.byteLength ?? 0))
    state.listCache = undefined
    try {
      charge(made.body.byteLength)
    } catch {
      return
    }
  }
  state.listCache = made
}

/** The list body, serialised once per version of the orders rather than once per request. */
function listReply(state: OperationState): Reply {
  const { exposeStatus } = state.settings()
  const version = state.store.version()
  let cached = state.listCache
  if (cached?.version !== version || cached.exposeStatus !== exposeStatus) {
    cached = { version, exposeStatus, body: serializeOrders(state.store.all(), exposeStatus) }
    keep(state, cached)
  }
  return { status: 200, headers: JSON_HEADERS, body: cached.body }
}

/** `GET /store/orders`: every order, in one JSON array (the spec shows no paging). */
export const listOrders = {
  id: 'listOrders',
  method: 'GET',
  path: '/store/orders',
  statuses: [200, 401],
  answer: ({ state }) => listReply(state),
  preferred(status, { state }) {
    if (status === 401) throw preferredUnauthorized()
    return listReply(state)
  },
} as const satisfies OperationDefinition<'listOrders'>
