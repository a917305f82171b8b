import type { SimulatorView } from '../core/simulator/types.js'
import { button, h, row, section, table } from './dom.js'
import type { Run } from './orders-section.js'

/** The newest requests shown; the journal keeps more (`sim.requests()`). */
const SHOWN = 20

/** The last requests the in-page simulator answered, newest first, and a Clear button. */
export function requestsSection(sim: SimulatorView, run: Run): { element: HTMLElement; render(): void } {
  const { table: requestsTable, body } = table('Last requests', ['time', 'method', 'path', 'status', 'ms'])
  const error = h('p', { class: 'error', role: 'alert' })
  const clear = button('Clear', () => run(error, () => sim.journal.clear()), 'Clear requests')
  const element = section(
    'sim-requests',
    'Last requests',
    h('div', { class: 'scroll' }, requestsTable),
    h('p', { class: 'line' }, clear),
    error,
  )

  function render(): void {
    const entries = sim.journal.entries().slice(-SHOWN).reverse()
    body.replaceChildren(
      ...entries.map((entry) => {
        const tr = row([entry.time.slice(11, 23), entry.method, entry.path, entry.status, Math.round(entry.duration)])
        tr.children[2]?.classList.add('path')
        return tr
      }),
    )
    if (entries.length === 0) body.append(h('tr', {}, h('td', { colspan: '5', class: 'now' }, 'None yet.')))
  }
  return { element, render }
}
