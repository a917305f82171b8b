// What both QA panels (the server's at /__sim/ and the in-page devtools) show about faults and latency.
import type { FaultInput } from '../core/controls/faults.js'

/** One click each: the misbehaviours a frontend most often has to survive. */
export const FAULT_PRESETS: readonly { label: string; fault: FaultInput }[] = [
  { label: 'Next 2 cancels answer 503', fault: { operation: 'cancelOrder', kind: 'status', status: 503, times: 2 } },
  { label: 'Reset the connection of the next list', fault: { operation: 'listOrders', kind: 'network', times: 1 } },
  { label: 'Next cancel hangs 30 s', fault: { operation: 'cancelOrder', kind: 'hang', durationMs: 30_000, times: 1 } },
  { label: 'Next list body takes 3 s', fault: { operation: 'listOrders', kind: 'slow-body', durationMs: 3000, times: 1 } },
  { label: 'Next list is malformed JSON', fault: { operation: 'listOrders', kind: 'malformed-json', times: 1 } },
]

/** A fault as either panel holds it: the admin API's JSON or the simulator's own `Fault`. */
export interface ShownFault {
  id: number
  operation: string
  kind: string
  status?: number
  orderId?: number | bigint | string
  remaining: number | null
  probability?: number
  durationMs?: number
}

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
  const parts = Object.entries(latency ?? {}).flatMap(([name, range]) =>
    range === undefined
      ? []
      : [`${name === 'default' ? 'all' : name} ${range.min === range.max ? range.min : `${range.min}-${range.max}`} ms`],
  )
  return parts.length === 0 ? 'Now: none.' : `Now: ${parts.join(', ')}.`
}
