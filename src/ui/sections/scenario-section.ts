// The scenario loaded now, and Apply (another scenario, a seed) and Reset.
import type * as v from 'valibot'
import type { State } from '../../core/admin/admin-schemas.js'
import type { PanelContext } from '../connection.js'
import { alert, button, field, form, h, inputs, section } from '../dom.js'
import { numberOr } from './orders-section.js'

export type ShownState = v.InferOutput<typeof State>

export function scenarioSection(ctx: PanelContext) {
  const choice = h('select', { id: ctx.id('scenario'), name: 'scenario' })
  const now = h('p', { id: ctx.id('scenario-now'), class: 'now' })
  const error = alert(ctx.id('scenario-error'))
  const apply = (applied: HTMLFormElement) => {
    const seed = field(applied, 'seed')
    const body = { scenario: choice.value, ...(seed === '' ? {} : { seed: numberOr(seed) }) }
    ctx.run(error, () => ctx.admin().reset({ body: body as never }))
  }
  const seed = inputs(["Seed|seed|10|the scenario's"], { inputmode: 'numeric' })
  const reset = button('Reset', () => ctx.run(error, () => ctx.admin().reset({ body: {} })))
  const applying = form({ id: ctx.id('scenario-form'), class: 'line' }, apply, h('label', {}, 'Scenario to load', choice), ...seed)
  applying.append(h('button', { type: 'submit' }, 'Apply'), reset, error)
  /** The scenarios a reset may name, the current one chosen. */
  async function load(): Promise<void> {
    const list = await ctx.admin().listScenarios()
    const label = (name: string, builtin: boolean) => (builtin ? name : `${name} (the server's file)`)
    choice.replaceChildren(...list.map(({ name, builtin }) => h('option', { value: name }, label(name, builtin))))
    choice.value = list.find((scenario) => scenario.current)?.name ?? ''
  }
  return {
    element: section(ctx.id('scenario-section'), 'Scenario', now, applying),
    load: () => ctx.run(error, load),
    show(state: ShownState): void {
      now.textContent = `Now: ${state.scenario} (${state.description})${state.seed === null ? '' : `, seed ${state.seed}`}.`
      // Left alone while someone is choosing.
      if (ctx.focused() !== choice) choice.value = state.scenario
    },
  }
}
