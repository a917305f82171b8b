import { stringifyExactJson } from '../../core/exact-json.js'
import type { JsonValue } from '../../core/glossary.js'
import { isWithinRange } from '../../core/scenario/date-time.js'
import { bearer, type Check, LIST, type Side } from './check.js'
import { answerFacts, type Facts, factOf, jsonOf } from './facts.js'
import { idsOf, listOf } from './list-checks.js'

/**
 * An RFC 9745 `Deprecation` (`@<seconds>`) or an HTTP-date as an ISO date, or
 * undefined, also for a valid one no scenario can hold (`@253402300800`, the year 10000).
 */
function dateOfHeader(value: string | undefined): string | undefined {
  if (value === undefined || value === '(none)') return undefined
  const seconds = /^@(-?\d+)$/.exec(value.trim())?.[1]
  const date = seconds === undefined ? new Date(value) : new Date(Number(seconds) * 1000)
  return isWithinRange(date) ? date.toISOString() : undefined
}

const getPet = (side: Side, pet: string) => side.send({ method: 'GET', path: `/pets/${pet}`, headers: bearer(side.key) })

/** One deprecation header of `GET /pets/{petId}`, and the `deprecation` date that would give it. */
function petHeader(id: string, header: 'Deprecation' | 'Sunset', field: 'deprecatedAt' | 'sunsetAt'): Check {
  return {
    id,
    title: `the ${header} header of the deprecated GET /pets/{petId}`,
    skip: (context) => (context.pet === undefined ? 'give --pet <id> to check GET /pets/{petId}' : undefined),
    async probe(side, context) {
      const observed = await getPet(side, context.pet ?? '')
      return answerFacts(observed, [header]).filter(([name]) => name === header)
    },
    propose(service) {
      const date = dateOfHeader(factOf(service, header))
      return date === undefined ? undefined : { deprecation: { [field]: date } }
    },
  }
}

/** The facts of an answer, each name prefixed (`first cancel status`), for checks made of several requests. */
function prefixed(prefix: string, facts: Facts): [string, string][] {
  return facts.map(([name, value]) => [`${prefix} ${name}`, value])
}

/** The deprecated pets operation (`--pet`) and the destructive checks (`--shipped-order`, `--pending-order`). */
export const ORDER_CHECKS: readonly Check[] = [
  petHeader('pet.deprecation', 'Deprecation', 'deprecatedAt'),
  petHeader('pet.sunset', 'Sunset', 'sunsetAt'),
  {
    id: 'pet.record',
    title: 'GET /pets/{petId}: the status and the record',
    skip: (context) => (context.pet === undefined ? 'give --pet <id> to check GET /pets/{petId}' : undefined),
    async probe(side, context) {
      const observed = await getPet(side, context.pet ?? '')
      const json = observed.kind === 'answer' && observed.status === 200 ? jsonOf(observed.body) : undefined
      return [...answerFacts(observed), ...(json === undefined ? [] : [['record', stringifyExactJson(json.value)] as [string, string]])]
    },
    propose(service, context) {
      const record = factOf(service, 'record')
      const json = record === undefined ? undefined : jsonOf(new TextEncoder().encode(record))
      return json === undefined || context.pet === undefined ? undefined : { pets: { [context.pet]: json.value as JsonValue } }
    },
  },
  {
    id: 'order.shipped',
    title: 'DELETE a shipped order (--shipped-order): 409, unchanged',
    skip: (context) => (context.shippedOrder === undefined ? 'give --shipped-order <id> to check the 409 of a shipped order' : undefined),
    async probe(side, context) {
      const id = context.shippedOrder ?? ''
      await side.arrange(id, 'shipped')
      return answerFacts(await side.send({ method: 'DELETE', path: `${LIST}/${id}`, headers: bearer(side.key) }))
    },
  },
  {
    id: 'order.pending',
    title: 'DELETE a pending order (--pending-order, cancels it), then the list, then DELETE it again',
    skip: (context) =>
      context.pendingOrder === undefined ? 'give --pending-order <id> to check a cancel (it cancels that order on the service)' : undefined,
    async probe(side, context) {
      const id = context.pendingOrder ?? ''
      await side.arrange(id, 'pending')
      const cancel = () => side.send({ method: 'DELETE', path: `${LIST}/${id}`, headers: bearer(side.key) })
      const first = prefixed('first cancel', answerFacts(await cancel()))
      const list = listOf(await side.send({ method: 'GET', path: LIST, headers: bearer(side.key) }))
      const listed = 'orders' in list ? (idsOf(list.orders).includes(id) ? 'yes' : 'no') : list.problem
      return [...first, ['in the list afterwards', listed], ...prefixed('second cancel', answerFacts(await cancel()))]
    },
    propose(service) {
      const listed = factOf(service, 'in the list afterwards')
      return listed === 'no' ? { afterCancel: 'remove' } : listed === 'yes' ? { afterCancel: 'keep' } : undefined
    },
  },
]
