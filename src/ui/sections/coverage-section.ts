// Outcome coverage: which of the service's documented outcomes the state followed answered, as it happens (issue 46).
import type * as v from 'valibot'
import type { Coverage } from '../../core/admin/admin-schemas.js'
import { exercisedShare } from '../../core/outcome-coverage/share.js'
import type { PanelContext } from '../connection.js'
import { alert, button, h, row, section, table } from '../dom.js'

/** The `coverage` event: GET /__sim/coverage's answer. */
export type ShownCoverage = v.InferOutput<typeof Coverage>

/** The mark of an outcome: words a screen reader says, the tick only for the eye (colour is never the only sign). */
const mark = (count: number) => (count > 0 ? h('td', {}, h('span', { 'aria-hidden': 'true' }, '✓ '), 'seen') : h('td', {}, 'never'))

/** A deprecated operation's calls: what a client still calling it should hear before its sunset. */
const deprecation = ({ method, path, calls, sunset }: ShownCoverage['deprecated'][number]) =>
  h('p', {}, `${method} ${path} is deprecated (sunset ${sunset.slice(0, 10)}): called ${calls} time${calls === 1 ? '' : 's'}.`)

/**
 * An outcome's row, found by its id: the id, its mark, its count, and for one never seen how to provoke it (the
 * recipe's text GET /__sim/coverage gives: the panel does not carry the recipes' tables). Text, never markup.
 */
const outcomeRow = ({ id, count, recipe }: ShownCoverage['outcomes'][number]) =>
  h(
    'tr',
    { 'data-outcome-id': id, class: count > 0 ? 'seen' : 'never' },
    h('td', {}, id),
    mark(count),
    h('td', {}, String(count)),
    h('td', { class: 'recipe' }, count > 0 ? '' : (recipe?.text ?? '')),
  )

export function coverageSection(ctx: PanelContext) {
  const { table: outcomes, body } = table('Outcomes', ['outcome', 'seen', 'count', 'to provoke it'], ctx.id('coverage'))
  const provoked = table('Provoked with controls', ['control', 'outcome', 'count'], ctx.id('provoked'))
  // A visible title too: the table's aria-label names it for a screen reader only.
  const provokedPart = h('div', { hidden: true }, h('h3', {}, 'Provoked with controls'), provoked.table)
  // A status region: a screen reader hears the summary move on, not every count.
  const summary = h('p', { id: ctx.id('coverage-summary'), role: 'status' })
  const deprecated = h('div', { id: ctx.id('deprecated') })
  const error = alert(ctx.id('coverage-error'))
  const clear = button('Start coverage over', () => ctx.run(error, () => ctx.admin().clearCoverage()))
  // No scroll box in the corner panel: a dozen rows fit, and a box with nothing focusable in it would not scroll from the keyboard.
  const shown = [summary, outcomes, provokedPart, deprecated]
  const element = section(ctx.id('coverage-section'), 'Coverage', ...shown, h('div', { class: 'line' }, clear, error))

  function show(coverage: ShownCoverage): void {
    const said = `${exercisedShare(coverage)} outcomes exercised`
    if (summary.textContent !== said) summary.textContent = said
    body.replaceChildren(...coverage.outcomes.map(outcomeRow))
    provoked.body.replaceChildren(...coverage.provoked.map(({ control, id, count }) => row([control, id, count])))
    provokedPart.hidden = coverage.provoked.length === 0
    deprecated.replaceChildren(...coverage.deprecated.filter(({ calls }) => calls > 0).map(deprecation))
  }
  return { element, show }
}
