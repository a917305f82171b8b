// Misbehaviour on purpose: faults, latency, rate limit. Bodies go to the view as they came: it checks them as any in-process input.
import type { FaultInput as FaultInputValue } from '../controls/faults.js'
import type { LatencySettings } from '../controls/latency.js'
import type { RateLimit as RateLimitValue } from '../controls/rate-limit.js'
import type { SimulatorView } from '../simulator/types.js'
import { removedOr404 } from './admin-input.js'
import { operation, type SchemaRef } from './admin-operation.js'

/** `GET` a setting, and `PUT` a new one (a body of `null`, or none, turns it off). */
function setting<S extends SchemaRef, I extends SchemaRef>(
  path: string,
  what: { name: string; it: string; read: string; schema: S; input: I; hint: string },
  read: (view: SimulatorView) => unknown,
  write: (view: SimulatorView, value: never) => void,
) {
  const get = operation({
    method: 'GET',
    path,
    tag: 'controls',
    summary: `The ${what.name} in force`,
    status: 200,
    answer: { description: what.read, schema: what.schema },
    run: ({ view }) => read(view),
  })
  const put = operation({
    method: 'PUT',
    path,
    tag: 'controls',
    summary: `Set the ${what.name}`,
    description: `A body of null, or none, turns ${what.it} off.`,
    body: { schema: what.input, required: false, hint: what.hint },
    status: 200,
    answer: { description: `The ${what.name} now in force.`, schema: what.schema },
    errors: { 400: `invalid_request: not a ${what.name} (the message shows the forms it takes).` },
    run: ({ view, body }: { view: SimulatorView; body: unknown }) => {
      write(view, (body ?? null) as never)
      return read(view)
    },
  })
  return [get, put] as const
}

const [getLatency, setLatency] = setting(
  '/latency',
  {
    name: 'latency',
    it: 'latency',
    read: 'Ranges in ms by operation (default for the others), or null for none.',
    schema: 'Latency',
    input: 'LatencyInput',
    hint: 'Send JSON such as "50-400" (a string, quotes included), 50, {"min": 50, "max": 400}, or null to turn latency off.',
  },
  (view) => view.latency(),
  (view, value: LatencySettings | null) => view.setLatency(value),
)
const [getRateLimit, setRateLimit] = setting(
  '/rate-limit',
  {
    name: 'rate limit',
    it: 'it',
    read: 'The rate limit, or null for none.',
    schema: 'RateLimit',
    input: 'RateLimitInput',
    hint: 'Send JSON such as "100/60s" (a string, quotes included), {"limit": 100, "windowSeconds": 60}, or null to turn it off.',
  },
  (view) => view.rateLimit(),
  (view, value: RateLimitValue | null) => view.setRateLimit(value),
)

export const CONTROL_OPERATIONS = {
  listFaults: operation({
    method: 'GET',
    path: '/faults',
    tag: 'controls',
    summary: 'The faults in force, in the order they were added',
    status: 200,
    answer: { description: 'The faults.', schema: 'Fault[]' },
    run: ({ view }) => view.faults(),
  }),
  addFault: operation({
    method: 'POST',
    path: '/faults',
    tag: 'controls',
    summary: 'Add a fault',
    body: { schema: 'FaultInput', required: true },
    status: 201,
    answer: { description: 'The fault, with its id.', schema: 'Fault' },
    errors: { 400: 'invalid_request: the fault is not valid (the message names the field), or 100 faults are in force already.' },
    run: ({ view, body }) => view.addFault(body as FaultInputValue),
  }),
  clearFaults: operation({
    method: 'DELETE',
    path: '/faults',
    tag: 'controls',
    summary: 'Remove every fault',
    status: 204,
    answer: { description: 'No fault is in force.' },
    run: ({ view }) => view.clearFaults(),
  }),
  removeFault: operation({
    method: 'DELETE',
    path: '/faults/{faultId}',
    tag: 'controls',
    summary: 'Remove one fault',
    params: {
      faultId: {
        schema: 'FaultId',
        description: "The id the fault was given. Anything that is no fault's id is a 404.",
      },
    },
    status: 204,
    answer: { description: 'The fault is gone.' },
    errors: { 404: 'not_found: no fault has that id.' },
    run: ({ view, params }) => removedOr404(view.removeFault(Number(params['faultId'])), 'fault', params['faultId']),
  }),
  getLatency,
  setLatency,
  getRateLimit,
  setRateLimit,
}
