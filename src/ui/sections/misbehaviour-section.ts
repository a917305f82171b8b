// Misbehaviour on purpose: fault presets, the active faults, latency, any fault and the rate limit.
import { OPERATION_IDS } from '../../core/operations/registry.js'
import type { PanelContext } from '../connection.js'
import { describeFault, describeLatency, describeRateLimit, FAULT_PRESETS, type ShownFault } from '../describe.js'
import { button, field, form, h, input, section, select } from '../dom.js'
import { numberOr } from './orders-section.js'

export interface ShownControls {
  latency: Record<string, { min: number; max: number }> | null
  faults: ShownFault[]
  rateLimit: { limit: number; windowSeconds: number } | null
}

const error = (ctx: PanelContext, name: string) => h('p', { class: 'error', id: ctx.id(name), role: 'alert' })
const fieldset = (legend: string, ...children: Node[]) => h('fieldset', {}, h('legend', {}, legend), ...children)

/** The latency and rate limit forms: set, turn off, and what is in force. */
function settings(ctx: PanelContext) {
  const admin = () => ctx.admin()
  const latencyNow = h('p', { class: 'now', id: ctx.id('latency-now') })
  const latencyError = error(ctx, 'latency-error')
  const setLatency = (latency: HTMLFormElement) => {
    const given = Object.fromEntries(
      ['default', ...OPERATION_IDS].map((name) => [name, numberOr(field(latency, name))]).filter(([, value]) => value !== ''),
    )
    ctx.run(latencyError, () => admin().setLatency({ body: (Object.keys(given).length === 0 ? null : given) as never }))
  }
  const latency = form(
    { id: ctx.id('latency-form') },
    setLatency,
    fieldset(
      'Latency in ms: 50, or a range 50-400',
      input('All operations', 'default', { size: '8' }),
      ...OPERATION_IDS.map((name) => input(name, name, { size: '8' })),
      h('button', { type: 'submit' }, 'Set latency'),
      button('No latency', () => ctx.run(latencyError, () => admin().setLatency({ body: null }))),
      latencyNow,
      latencyError,
    ),
  )
  const rateNow = h('p', { class: 'now', id: ctx.id('rate-now') })
  const rateError = error(ctx, 'rate-error')
  const rate = form(
    { id: ctx.id('rate-form') },
    (limit) => ctx.run(rateError, () => admin().setRateLimit({ body: field(limit, 'limit') === '' ? null : field(limit, 'limit') })),
    fieldset(
      'Rate limit per key',
      input('Rate limit', 'limit', { size: '10', placeholder: '100/60s' }),
      h('button', { type: 'submit' }, 'Set rate limit'),
      button('No rate limit', () => ctx.run(rateError, () => admin().setRateLimit({ body: null }))),
      rateNow,
      rateError,
    ),
  )
  return { latency, rate, latencyNow, rateNow }
}

export function misbehaviourSection(ctx: PanelContext) {
  const admin = () => ctx.admin()
  const presetError = error(ctx, 'preset-error')
  const presets = h('div', { id: ctx.id('presets'), class: 'line' })
  presets.append(
    ...FAULT_PRESETS.map(({ label, fault }) => button(label, () => ctx.run(presetError, () => admin().addFault({ body: fault as never })))),
  )
  const faults = h('ul', { id: ctx.id('faults'), 'aria-labelledby': ctx.id('faults-title') })
  const faultError = error(ctx, 'fault-error')
  const addFault = (added: HTMLFormElement) => {
    const fault: Record<string, unknown> = { operation: field(added, 'operation'), kind: field(added, 'kind') }
    for (const name of ['status', 'times', 'probability', 'durationMs'])
      if (field(added, name) !== '') fault[name] = numberOr(field(added, name))
    if (field(added, 'orderId') !== '') fault['orderId'] = field(added, 'orderId')
    ctx.run(faultError, () => admin().addFault({ body: fault as never }))
  }
  const anyFault = form(
    { id: ctx.id('fault-form') },
    addFault,
    fieldset(
      'Any fault',
      select('Operation', 'operation', ['cancelOrder', 'listOrders', 'getPetById']),
      select('Kind', 'kind', ['status', 'network', 'hang', 'slow-body', 'malformed-json']),
      input('Status', 'status', { size: '4', inputmode: 'numeric', placeholder: '503' }),
      input('Order id', 'orderId', { size: '20', inputmode: 'numeric' }),
      input('Times', 'times', { size: '4', inputmode: 'numeric' }),
      input('Probability', 'probability', { size: '4', inputmode: 'decimal', placeholder: '0-1' }),
      input('Duration ms', 'durationMs', { size: '6', inputmode: 'numeric' }),
      h('button', { type: 'submit' }, 'Add fault'),
      faultError,
    ),
  )
  const { latency, rate, latencyNow, rateNow } = settings(ctx)
  const element = section(
    ctx.id('misbehaviour'),
    'Misbehaviour',
    fieldset('Fault presets', presets, presetError),
    h('h3', { id: ctx.id('faults-title') }, 'Active faults'),
    faults,
    latency,
    anyFault,
    rate,
  )

  function show(controls: ShownControls): void {
    // A removed fault takes its focused button with it: the keyboard goes on to the next fault's, or back to the presets.
    const hadFocus = faults.contains(ctx.focused())
    faults.replaceChildren(
      ...(controls.faults.length === 0
        ? [h('li', {}, 'None.')]
        : controls.faults.map((fault) =>
            h(
              'li',
              {},
              `#${fault.id} ${describeFault(fault)} `,
              button('Remove', () => ctx.run(presetError, () => admin().removeFault({ faultId: fault.id })), `Remove fault ${fault.id}`),
            ),
          )),
    )
    if (hadFocus && !faults.contains(ctx.focused())) (faults.querySelector('button') ?? presets.querySelector('button'))?.focus()
    latencyNow.textContent = describeLatency(controls.latency)
    rateNow.textContent = describeRateLimit(controls.rateLimit)
  }
  return { element, show }
}
