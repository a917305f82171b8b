// The scenario loaded now, Apply (another scenario, a seed) and Reset, and this state saved as a scenario or downloaded.
import type * as v from 'valibot'
import type { State } from '../../core/admin/admin-schemas.js'
import type { ScenarioSummary } from '../../core/admin/scenario-schemas.js'
import { stringifyExactJson } from '../../core/exact-json.js'
import type { PanelContext } from '../connection.js'
import { alert, button, field, filledIn, form, h, inputs, section } from '../dom.js'
import { numberOr } from './orders-section.js'

export type ShownState = v.InferOutput<typeof State>
/** What the browser checks of a name before a save (the server checks it again). */
const NAME_FIELD = { required: 'true', pattern: '[a-z0-9][a-z0-9\\-]{0,63}', title: 'a-z, 0-9 and - (not first), 64 at most' }

/** An option of the scenario select: a folder's file says so, one that does not load says why and cannot be chosen. */
function option({ name, builtin, source, error }: v.InferOutput<typeof ScenarioSummary>): HTMLOptionElement {
  const from = builtin ? '' : source === 'folder' ? ' (folder)' : " (the server's file)"
  const why = typeof error === 'string' ? `: does not load, ${error}` : ''
  return h('option', { value: name, disabled: why !== '' }, `${name}${from}${why}`)
}

export function scenarioSection(ctx: PanelContext) {
  const choice = h('select', { id: ctx.id('scenario'), name: 'scenario' })
  const now = h('p', { id: ctx.id('scenario-now'), class: 'now' })
  // What answers beyond the spec: the routes, and where the rest goes (docs/proxy.md).
  const beyond = h('p', { id: ctx.id('beyond-now'), class: 'now' })
  const routes = h('ul', { id: ctx.id('routes'), 'aria-label': 'Routes' })
  const [error, saveError] = [alert(ctx.id('scenario-error')), alert(ctx.id('save-error'))]
  const apply = (applied: HTMLFormElement) =>
    ctx.run(error, () => ctx.admin().reset({ body: { scenario: choice.value, ...filledIn(applied, ['seed'], numberOr) } }))
  const seed = inputs(["Seed|seed|10|the scenario's"], { inputmode: 'numeric' })
  const reset = button('Reset', () => ctx.run(error, () => ctx.admin().reset({ body: {} })))
  const applying = form({ id: ctx.id('scenario-form'), class: 'line' }, apply, h('label', {}, 'Scenario to load', choice), ...seed)
  applying.append(h('button', { type: 'submit' }, 'Apply'), reset, error)
  const saved = h('p', { id: ctx.id('save-now'), class: 'now', role: 'status' }, ctx.unsaved ?? '')
  const save = (filled: HTMLFormElement) => {
    const [name, overwrite] = [field(filled, 'name'), (filled.elements.namedItem('overwrite') as HTMLInputElement).checked]
    ctx.run(saveError, async () => {
      saved.textContent = ''
      await ctx.admin().saveScenario({ body: { name, overwrite, ...filledIn(filled, ['description']) } })
      saved.textContent = `Saved as ${name}: Apply loads it, in any session.`
      await load()
    })
  }
  const download = () =>
    ctx.run(saveError, async () => {
      const name = field(saving, 'name')
      const file = await ctx.admin().exportScenario({ query: name === '' ? {} : { name } })
      // A link clicked, as a user would: the browser saves the file under the scenario's name.
      const link = h('a', { download: `${file.name}.json`, href: URL.createObjectURL(new Blob([`${stringifyExactJson(file, 2)}\n`])) })
      link.click()
      setTimeout(() => URL.revokeObjectURL(link.href), 1000)
    })
  const title = h('h3', { id: ctx.id('save-title') }, 'This state as a scenario')
  const overwrite = h('label', {}, 'Overwrite', h('input', { type: 'checkbox', name: 'overwrite' }))
  const fields = [...inputs(['Name|name|16|qa-big'], NAME_FIELD), ...inputs(['Description|description|24']), overwrite]
  const saving = form({ id: ctx.id('save-form'), class: 'line', 'aria-labelledby': title.id }, save, ...fields)
  const submit = { type: 'submit', disabled: ctx.unsaved !== undefined, 'aria-describedby': saved.id }
  saving.append(h('button', submit, 'Save as scenario'), button('Download', download), saved, saveError)
  /** The scenarios a reset may name: the one chosen stays chosen (a refresh never undoes a choice), else the current one. */
  async function load(): Promise<void> {
    const [list, chosen] = [await ctx.admin().listScenarios(), choice.value]
    choice.replaceChildren(...list.map(option))
    const keep = list.some((scenario) => scenario.name === chosen && typeof scenario.error !== 'string')
    choice.value = keep ? chosen : (list.find((scenario) => scenario.current)?.name ?? '')
  }
  let shown: string | undefined
  return {
    element: section(ctx.id('scenario-section'), 'Scenario', now, beyond, routes, applying, title, saving),
    load: () => ctx.run(error, load),
    show(state: ShownState): void {
      now.textContent = `Now: ${state.scenario} (${state.description})${state.seed === null ? '' : `, seed ${state.seed}`}.`
      // Follows a change of scenario, unless someone is choosing; another event leaves a choice alone.
      if (state.scenario !== shown && ctx.focused() !== choice) choice.value = state.scenario
      shown = state.scenario
      const { proxy } = state.options
      const forwarding =
        proxy === null
          ? 'Not forwarding: what no operation or route takes gets 404 or 405.'
          : `Forwarding the rest to ${proxy.target}${proxy.record ? ', recording each answer as a route' : ''}.`
      beyond.textContent = `Routes: ${state.routes.length}. ${forwarding}`
      // The first 50: a recording state may hold a thousand.
      const listed = state.routes
        .slice(0, 50)
        .map((route) => `${route.method} ${route.path} → ${route.status}${route.auth === false ? ' (no key)' : ''}`)
      if (state.routes.length > 50) listed.push(`… and ${state.routes.length - 50} more (GET /__sim/state lists them all)`)
      routes.replaceChildren(...listed.map((line) => h('li', {}, line)))
    },
  }
}
