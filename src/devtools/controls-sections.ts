// The scenario picker and the misbehaviour controls (fault presets, active faults, latency) of the in-page panel.
import { BUILTIN_SCENARIOS } from '../core/scenario/builtin-scenarios.js'
import type { SimulatorView } from '../core/simulator/types.js'
import { describeFault, describeLatency, FAULT_PRESETS } from '../ui/fault-presets.js'
import { button, h, section } from './dom.js'
import type { Run } from './orders-section.js'

/** "Scenario to load", Apply and Reset, with the scenario loaded now. */
export function scenarioSection(sim: SimulatorView, run: Run): { element: HTMLElement; render(): void } {
  const select = h('select', { name: 'scenario' })
  const now = h('p', { class: 'now' })
  const error = h('p', { class: 'error', role: 'alert' })
  const apply = h('button', { type: 'submit' }, 'Apply')
  const form = h(
    'form',
    { class: 'line' },
    h('label', {}, 'Scenario to load', select),
    apply,
    button('Reset', () => run(error, () => sim.reset())),
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    run(error, () => sim.reset(select.value))
  })
  const element = section('sim-scenario', 'Scenario', now, form, error)

  function render(): void {
    const { name, description } = sim.scenario()
    now.textContent = `Now: ${name}${description === '' ? '' : ` (${description})`}.`
    // A scenario given as an object is offered too, so that Apply can load it again.
    const names = [...Object.keys(BUILTIN_SCENARIOS), ...(name in BUILTIN_SCENARIOS ? [] : [name])]
    if (select.options.length !== names.length || [...select.options].some((option, index) => option.value !== names[index]))
      select.replaceChildren(...names.map((value) => h('option', { value }, value)))
    // Left alone while someone is choosing.
    if ((element.getRootNode() as ShadowRoot).activeElement !== select) select.value = name
  }
  return { element, render }
}

/** A latency field's text as `setLatency` takes it: a bare number is milliseconds, "50-400" a range. */
const latencyOf = (text: string): number | string => (/^\d+$/.test(text) ? Number(text) : text)

/** Fault presets, the active faults with a Remove button each, and the latency of every operation. */
export function misbehaviourSection(sim: SimulatorView, run: Run): { element: HTMLElement; render(): void } {
  const faultError = h('p', { class: 'error', role: 'alert' })
  const presets = h(
    'fieldset',
    {},
    h('legend', {}, 'Fault presets'),
    ...FAULT_PRESETS.map(({ label, fault }) => button(label, () => run(faultError, () => sim.addFault(fault)))),
  )
  const faults = h('ul', { 'aria-labelledby': 'sim-faults-title' })

  const latencyInput = h('input', { name: 'latency', size: '8', placeholder: '50-400', autocomplete: 'off' })
  const latencyNow = h('p', { class: 'now' })
  const latencyError = h('p', { class: 'error', role: 'alert' })
  const latencyForm = h(
    'form',
    {},
    h(
      'fieldset',
      { class: 'line' },
      h('legend', {}, 'Latency in ms: 50, or a range 50-400'),
      h('label', {}, 'All operations', latencyInput),
      h('button', { type: 'submit' }, 'Set latency'),
      button('No latency', () => run(latencyError, () => sim.setLatency(null))),
    ),
  )
  latencyForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const text = latencyInput.value.trim()
    run(latencyError, () => sim.setLatency(text === '' ? null : latencyOf(text)))
  })

  const element = section(
    'sim-misbehaviour',
    'Misbehaviour',
    presets,
    faultError,
    h('h3', { id: 'sim-faults-title' }, 'Active faults'),
    faults,
    latencyForm,
    latencyNow,
    latencyError,
  )

  function render(): void {
    // A removed fault takes its focused button with it: the keyboard goes on to the next fault's, or back to the presets.
    const root = element.getRootNode() as ShadowRoot
    const hadFocus = faults.contains(root.activeElement)
    const active = sim.faults()
    faults.replaceChildren(
      ...(active.length === 0
        ? [h('li', {}, 'None.')]
        : active.map((fault) =>
            h(
              'li',
              {},
              `#${fault.id} ${describeFault(fault)} `,
              button('Remove', () => run(faultError, () => sim.removeFault(fault.id)), `Remove fault ${fault.id}`),
            ),
          )),
    )
    if (hadFocus && !faults.contains(root.activeElement)) (faults.querySelector('button') ?? presets.querySelector('button'))?.focus()
    latencyNow.textContent = describeLatency(sim.latency())
  }
  return { element, render }
}
