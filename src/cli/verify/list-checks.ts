import { stringifyExactJson } from '../../core/exact-json.js'
import { bearer, type Check, LIST, type Side } from './check.js'
import { answerFacts, factOf, jsonOf, snippet } from './facts.js'
import { orderSchemaProblem } from './order-shape.js'
import type { Observed } from './probe-client.js'

/** The list a body holds, or a line saying why it holds none. */
export function listOf(observed: Observed): { orders: unknown[] } | { problem: string } {
  if (observed.kind === 'failure') return { problem: `no answer: ${observed.reason}` }
  if (observed.truncated) return { problem: 'the body is larger than 32 MiB' }
  const json = jsonOf(observed.body)
  if (json === undefined) return { problem: `not JSON: ${snippet(observed.body)}` }
  return Array.isArray(json.value) ? { orders: json.value } : { problem: `JSON, but not an array: ${snippet(observed.body)}` }
}

/** The ids of a list, in order, as exact decimal strings. */
export function idsOf(orders: readonly unknown[]): string[] {
  return orders.map((order) => stringifyExactJson((order as { id?: unknown } | null)?.id ?? null))
}

function getList(side: Side, path = LIST): Promise<Observed> {
  return side.send({ method: 'GET', path, headers: bearer(side.key) })
}

/** Whether `path` answers the same orders as the list itself (spec 4.1: no filtering, no paging). */
function sameListAt(id: string, title: string, path: string): Check {
  return {
    id,
    title,
    async probe(side) {
      const plain = listOf(await getList(side))
      const observed = await getList(side, path)
      const asked = listOf(observed)
      const same =
        'orders' in asked && 'orders' in plain
          ? idsOf(asked.orders).join() === idsOf(plain.orders).join()
            ? 'yes'
            : 'no'
          : 'problem' in asked
            ? asked.problem
            : 'the plain list could not be read'
      return [...answerFacts(observed), ['same orders as GET /store/orders', same]]
    },
  }
}

/** The list (spec 4.1): its shape against the OpenAPI Order schema, whether `status` shows, and the silences around its path. */
export const LIST_CHECKS: readonly Check[] = [
  {
    id: 'list.shape',
    title: 'GET /store/orders: a JSON array of valid Order objects',
    async probe(side) {
      const observed = await getList(side)
      const list = listOf(observed)
      const body = 'orders' in list ? 'a JSON array' : list.problem
      const valid = 'orders' in list ? (orderSchemaProblem(list.orders) ?? 'every item valid against Order') : '-'
      return [...answerFacts(observed), ['body', body], ['orders', valid]]
    },
  },
  {
    id: 'list.status-field',
    title: 'whether the orders of the list carry a status field',
    skip: (context) =>
      context.unknownId !== undefined && context.serviceIds.size === 0
        ? "the service's list is empty: nothing shows whether orders carry a status"
        : undefined,
    async probe(side) {
      const list = listOf(await getList(side))
      if ('problem' in list) return [['status field', list.problem]]
      const carrying = list.orders.filter((order) => typeof order === 'object' && order !== null && 'status' in order).length
      return [['status field', carrying === 0 ? 'on no order' : carrying === list.orders.length ? 'on every order' : 'on some orders']]
    },
    propose(service) {
      const field = factOf(service, 'status field')
      return field === 'on every order' ? { exposeStatus: true } : field === 'on no order' ? { exposeStatus: false } : undefined
    },
  },
  sameListAt('list.query', 'GET /store/orders?limit=1&offset=1 (query strings: no paging, no filtering)', `${LIST}?limit=1&offset=1`),
  sameListAt('list.trailing-slash', 'GET /store/orders/ (a trailing slash)', `${LIST}/`),
]
