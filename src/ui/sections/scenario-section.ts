// The scenario loaded now, and Apply (another scenario, a seed) and Reset.
import type { PanelContext } from '../connection.js'
import { button, field, form, h, input, section } from '../dom.js'
import { numberOr } from './orders-section.js'

export interface ShownState {
  scenario: string
  description: string
  seed: number | null
  options: { lifecycle?: { min: number; max: number } | null }
  orders: never[]
}

export function scenarioSection(ctx: PanelContext) {
  const choice = h('select', { id: ctx.id('scenario'), name: 'scenario' })
  const now = h('p', { id: ctx.id('scenario-now'), class: 'now' })
  const error = h('p', { class: 'error', id: ctx.id('scenario-error'), role: 'alert' })
  const apply = (applied: HTMLFormElement) => {
    const seed = field(applied, 'seed')
    const body = { scenario: choice.value, ...(seed === '' ? {} : { seed: numberOr(seed) }) }
    ctx.run(error, () => ctx.admin().reset({ body: body as never }))
  }
  const element = section(
    ctx.id('scenario-section'),
    'Scenario',
    now,
    form(
      { id: ctx.id('scenario-form'), class: 'line' },
      apply,
      h('label', {}, 'Scenario to load', choice),
      input('Seed', 'seed', { id: ctx.id('seed'), inputmode: 'numeric', placeholder: "the scenario's", size: '10' }),
      h('button', { type: 'submit' }, 'Apply'),
      button('Reset', () => ctx.run(error, () => ctx.admin().reset({ body: {} }))),
      error,
    ),
  )
  return {
    element,
    /** The scenarios a reset may name, the current one chosen. */
    load: () =>
      ctx.run(error, async () => {
        const list = await ctx.admin().listScenarios()
        choice.replaceChildren(
          ...list.map(({ name, builtin }) => h('option', { value: name }, builtin ? name : `${name} (the server's file)`)),
        )
        choice.value = list.find((scenario) => scenario.current)?.name ?? ''
      }),
    show(state: ShownState): void {
      now.textContent = `Now: ${state.scenario} (${state.description})${state.seed === null ? '' : `, seed ${state.seed}`}.`
      // Left alone while someone is choosing.
      if (ctx.focused() !== choice) choice.value = state.scenario
    },
  }
}
