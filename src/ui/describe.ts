// What the QA panel says of faults, latency, the rate limit, the lifecycle and the clock, in words.
import type * as v from 'valibot'
import type { Clock, Fault } from '../core/admin/admin-schemas.js'
import type { FaultInput } from '../core/controls/faults.js'

/** One click each: the misbehaviours a frontend most often has to survive. */
export const FAULT_PRESETS: readonly { label: string; fault: FaultInput }[] = [
  { label: 'Next 2 cancels answer 503', fault: { operation: 'cancelOrder', kind: 'status', status: 503, times: 2 } },
  { label: 'Reset the connection of the next list', fault: { operation: 'listOrders', kind: 'network', times: 1 } },
  { label: 'Next cancel hangs 30 s', fault: { operation: 'cancelOrder', kind: 'hang', durationMs: 30_000, times: 1 } },
  { label: 'Next list body takes 3 s', fault: { operation: 'listOrders', kind: 'slow-body', durationMs: 3000, times: 1 } },
  { label: 'Next list is malformed JSON', fault: { operation: 'listOrders', kind: 'malformed-json', times: 1 } },
]
/** A fault as the admin API gives it. */
export type ShownFault = v.InferOutput<typeof Fault>
/** One line per fault: "cancelOrder: status 503, 1 more time". */
export function describeFault(fault: ShownFault): string {
  const parts = [`${fault.operation}: ${fault.kind}${fault.status === undefined ? '' : ` ${fault.status}`}`]
  if (fault.orderId !== undefined) parts.push(`order ${fault.orderId}`)
  if (fault.durationMs !== undefined) parts.push(`${fault.durationMs} ms`)
  if (fault.probability !== undefined) parts.push(`probability ${fault.probability}`)
  parts.push(fault.remaining === null ? 'every time' : `${fault.remaining} more time${fault.remaining === 1 ? '' : 's'}`)
  return parts.join(', ')
}
/** Latency ranges as `latency()` and the admin API give them: `{ default: { min, max } }`, or null with none. */
export function describeLatency(latency: Readonly<Record<string, { min: number; max: number } | undefined>> | null): string {
  const range = ({ min, max }: { min: number; max: number }) => (min === max ? `${min}` : `${min}-${max}`)
  const parts = Object.entries(latency ?? {}).flatMap(([name, given]) =>
    given ? [`${name === 'default' ? 'all' : name} ${range(given)} ms`] : [],
  )
  return parts.length === 0 ? 'Now: none.' : `Now: ${parts.join(', ')}.`
}
/** The rate limit in force ("none" is the latency's word: each line is found by its own text). */
export const describeRateLimit = (limit: { limit: number; windowSeconds: number } | null) =>
  limit === null ? 'Now: no limit.' : `Now: ${limit.limit} per ${limit.windowSeconds} s.`
/** A duration in ms as people say it: 500 ms, 1.5 s, 30 s, 2 min, 1 h. */
function describeDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`
}
/** `state.options.lifecycle`: when pending orders ship by themselves, or null when they never do. */
export function describeLifecycle(lifecycle: { min: number; max: number } | null | undefined): string {
  if (!lifecycle) return 'Lifecycle: none (orders change only when someone changes them).'
  const { min, max } = lifecycle
  const after = min === max ? describeDuration(min) : `between ${describeDuration(min)} and ${describeDuration(max)}`
  return `Lifecycle: pending orders ship ${after} after they are loaded, reset or added.`
}
export type ShownClock = v.InferOutput<typeof Clock>
/** A time as ISO 8601 to the second: the milliseconds of a simulated clock mean nothing to a reader. */
const isoSecond = (time: number | string) => `${new Date(time).toISOString().slice(0, 19)}Z`
/** `GET /__sim/clock` with the simulated time `now` (ms): the time and the transitions still to come, soonest first. */
export function describeClock(clock: ShownClock, now: number): string {
  const advanced = clock.advancedMs === 0 ? 'not advanced' : `advanced ${describeDuration(clock.advancedMs)}`
  const time = `Simulated time: ${isoSecond(now)} (${advanced} since the last load or reset).`
  const [next] = clock.pending
  if (next === undefined) return `${time} No transitions to come.`
  const count = clock.pending.length === 1 ? '1 transition' : `${clock.pending.length} transitions`
  return `${time} ${count} to come, the soonest at ${isoSecond(next.at)} (order ${String(next.orderId)} ${next.status === 'shipped' ? 'ships' : `becomes ${next.status}`}).`
}
