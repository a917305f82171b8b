// Misbehaviour on purpose: fault presets, the active faults, latency, any fault and the rate limit.
import { OPERATION_IDS } from '../../core/operations/registry.js'
import type * as v from 'valibot'
import type { Latency, RateLimit } from '../../core/admin/admin-schemas.js'
import type { PanelContext } from '../connection.js'
import { describeFault, describeLatency, describeRateLimit, FAULT_PRESETS, type ShownFault } from '../describe.js'
import { alert, button, field, fieldset, filledIn, form, h, inputs, section, select } from '../dom.js'
import { numberOr } from './orders-section.js'

/** The `controls` event: the latency, faults and rate limit in force. */
export type ShownControls = { latency: v.InferOutput<typeof Latency>; faults: ShownFault[]; rateLimit: v.InferOutput<typeof RateLimit> }
type Write = (filled: HTMLFormElement | null) => Promise<unknown>

/** What a setting's form shows: its id part, legend, fields and the labels of Set and of the button that turns it off. */
type Setting = { name: string; legend: string; fields: Node[]; names: [string, string] }

/** A setting's form: its fields, Set and the button that turns it off (`write(null)`), what is in force, a refusal. */
function setting(ctx: PanelContext, { name, legend, fields, names }: Setting, write: Write) {
  const [now, error] = [h('p', { class: 'now', id: ctx.id(`${name}-now`) }), alert(ctx.id(`${name}-error`))]
  const off = button(names[1], () => ctx.run(error, () => write(null)))
  const all = fieldset(legend, ...fields, h('button', { type: 'submit' }, names[0]), off, now, error)
  return { form: form({ id: ctx.id(`${name}-form`) }, (filled) => ctx.run(error, () => write(filled)), all), now }
}

/** The Any fault form's number fields. */
const FAULT_NUMBERS = 'Status|status|4|503,Order id|orderId|20,Times|times|4,Probability|probability|4|0-1,Duration ms|durationMs|6'.split(
  ',',
)

export function misbehaviourSection(ctx: PanelContext) {
  const admin = () => ctx.admin()
  const [presetError, faultError] = [alert(ctx.id('preset-error')), alert(ctx.id('fault-error'))]
  const preset = ({ label, fault }: (typeof FAULT_PRESETS)[number]) =>
    button(label, () => ctx.run(presetError, () => admin().addFault({ body: fault as never })))
  const presets = h('div', { id: ctx.id('presets'), class: 'line' }, ...FAULT_PRESETS.map(preset))
  const faults = h('ul', { id: ctx.id('faults'), 'aria-labelledby': ctx.id('faults-title') })
  const fault = (filled: HTMLFormElement) => ({
    ...filledIn(filled, ['operation', 'kind', 'orderId']),
    ...filledIn(filled, ['status', 'times', 'probability', 'durationMs'], numberOr),
  })
  const addFault = (filled: HTMLFormElement) => ctx.run(faultError, () => admin().addFault({ body: fault(filled) as never }))
  const latencyFields = inputs(['All operations|default|8', ...OPERATION_IDS.map((name) => `${name}|${name}|8`)])
  const setLatency: Write = (filled) => {
    const given = filled === null ? {} : filledIn(filled, ['default', ...OPERATION_IDS], numberOr)
    return admin().setLatency({ body: (Object.keys(given).length === 0 ? null : given) as never })
  }
  const latency = setting(
    ctx,
    { name: 'latency', legend: 'Latency in ms: 50, or a range 50-400', fields: latencyFields, names: ['Set latency', 'No latency'] },
    setLatency,
  )
  const limitField = inputs(['Rate limit|limit|10|100/60s'])
  const setRateLimit: Write = (filled) => {
    const limit = filled === null ? '' : field(filled, 'limit')
    return admin().setRateLimit({ body: limit === '' ? null : limit })
  }
  const rate = setting(
    ctx,
    { name: 'rate', legend: 'Rate limit per key', fields: limitField, names: ['Set rate limit', 'No rate limit'] },
    setRateLimit,
  )
  const element = section(ctx.id('misbehaviour'), 'Misbehaviour', fieldset('Fault presets', presets, presetError))
  const operation = select('Operation', 'operation', ['cancelOrder', 'listOrders', 'getPetById'])
  const kind = select('Kind', 'kind', ['status', 'network', 'hang', 'slow-body', 'malformed-json'])
  const anyFault = [operation, kind, ...inputs(FAULT_NUMBERS, { inputmode: 'numeric' }), h('button', { type: 'submit' }, 'Add fault')]
  const faultForm = form({ id: ctx.id('fault-form') }, addFault, fieldset('Any fault', ...anyFault, faultError))
  element.append(h('h3', { id: ctx.id('faults-title') }, 'Active faults'), faults, latency.form, faultForm, rate.form)

  function show(controls: ShownControls): void {
    // A removed fault takes its focused button with it: the keyboard goes on to the next fault's, or back to the presets.
    const hadFocus = faults.contains(ctx.focused())
    const remove = (id: number) =>
      button('Remove', () => ctx.run(presetError, () => admin().removeFault({ faultId: id })), `Remove fault ${id}`)
    const items = controls.faults.map((fault) => h('li', {}, `#${fault.id} ${describeFault(fault)} `, remove(fault.id)))
    faults.replaceChildren(...(items.length === 0 ? [h('li', {}, 'None.')] : items))
    if (hadFocus && !faults.contains(ctx.focused())) (faults.querySelector('button') ?? presets.querySelector('button'))?.focus()
    latency.now.textContent = describeLatency(controls.latency)
    rate.now.textContent = describeRateLimit(controls.rateLimit)
  }
  return { element, show }
}
