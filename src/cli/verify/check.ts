import type { Scenario } from '../../core/scenario/scenario.js'
import { answerFacts, type Facts } from './facts.js'
import type { Observed, ProbeRequest } from './probe-client.js'

/** The simulator's switches that calibration may set: scenario fields, so a scenario file carries them. */
export type Calibration = Pick<Scenario, 'exposeStatus' | 'afterCancel' | 'deprecation' | 'pets'>

/** One end of the comparison: the service, or an in-process simulator. */
export interface Side {
  send(request: ProbeRequest): Promise<Observed>
  /** The key this side accepts: the user's on the service, the scenario's on the simulator. */
  key: string
  /** Puts an order with this id in this state where we own the state (the simulator); the service's is as it is. */
  arrange(id: string, status: 'pending' | 'shipped'): Promise<void>
}

/** What checks need besides the side: ids picked before they run, and the ids the user gave. */
export interface CheckContext {
  /** An id in neither the service's list nor the simulator's, or undefined when the service's list could not be read. */
  unknownId: string | undefined
  /** Ids the service's list holds (for checks that must not land on an existing order). */
  serviceIds: ReadonlySet<string>
  /** A key neither side should accept. */
  unknownKey: string
  pet: string | undefined
  shippedOrder: string | undefined
  pendingOrder: string | undefined
}

export interface Check {
  /** Stable, for scripts: `auth.no-key`. */
  id: string
  /** What is probed, for people. */
  title: string
  /** Why it does not run this time, or undefined. */
  skip?(context: CheckContext): string | undefined
  probe(side: Side, context: CheckContext): Promise<Facts>
  /** Switches that would give the service's answer, read from its facts; verified on a simulator before they are offered. */
  propose?(service: Facts, context: CheckContext): Calibration | undefined
}

export const LIST = '/store/orders'

export const bearer = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` })

/** A check of one request, compared on its status, its Error code and the `shown` headers. */
export function requestCheck(
  id: string,
  title: string,
  request: (side: Side, context: CheckContext) => ProbeRequest,
  shown: readonly string[] = [],
): Check {
  return { id, title, probe: async (side, context) => answerFacts(await side.send(request(side, context)), shown) }
}
