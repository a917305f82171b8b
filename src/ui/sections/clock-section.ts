// The lifecycle in force, the simulated clock and the transitions to come, and Advance clock.
import type { PanelContext } from '../connection.js'
import { describeClock, describeLifecycle, type ShownClock } from '../describe.js'
import { alert, field, form, h, inputs, section } from '../dom.js'

export function clockSection(ctx: PanelContext) {
  const lifecycle = h('p', { id: ctx.id('lifecycle-now'), class: 'now' })
  const now = h('p', { id: ctx.id('clock-now'), class: 'now' })
  const error = alert(ctx.id('clock-error'))
  let clock: ShownClock | null = null
  /** The simulated time less the page's: the clock is real time plus the advances, so it runs on between asks. */
  let aheadMs = 0
  let asked = 0
  const render = () => {
    if (clock !== null) now.textContent = describeClock(clock, Date.now() + aheadMs)
  }
  /** Shows the clock given, or asks for it: only the latest ask's answer, as answers may cross. */
  async function showClock(given?: Promise<ShownClock>): Promise<void> {
    const ask = ++asked
    const answer = await (given ?? ctx.admin().getClock())
    if (ask !== asked) return
    clock = answer
    aheadMs = Date.parse(answer.now) - Date.now()
    render()
  }
  const advance = (advanced: HTMLFormElement) => {
    // A bare number is milliseconds; anything else goes as text ("30s"), for the server to read or refuse.
    const by = field(advanced, 'advance')
    ctx.run(error, () => showClock(ctx.admin().advanceClock({ body: { advance: /^\d+$/.test(by) ? Number(by) : by } })))
  }
  const by = inputs(['Advance by|advance|8|30s, 5m, 1500'], { value: '30s' })
  const advancing = form({ id: ctx.id('clock-form'), class: 'line' }, advance, ...by, h('button', { type: 'submit' }, 'Advance clock'))
  advancing.append(error)
  return {
    element: section(ctx.id('clock-section'), 'Clock', lifecycle, now, advancing),
    tick: render,
    /** A load, reset or change of the orders moves the transitions to come. */
    show(state: { options: { lifecycle?: { min: number; max: number } | null } }): void {
      lifecycle.textContent = describeLifecycle(state.options.lifecycle)
      ctx.run(error, () => showClock())
    },
  }
}
