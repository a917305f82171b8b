import { AdminError } from '../core/admin/admin-client.js'
import type { PanelConnection, PanelContext, PanelEvent, StreamStatus } from './connection.js'
import { h } from './dom.js'
import { clockSection } from './sections/clock-section.js'
import { coverageSection, type ShownCoverage } from './sections/coverage-section.js'
import { misbehaviourSection, type ShownControls } from './sections/misbehaviour-section.js'
import { ordersSection } from './sections/orders-section.js'
import { requestsSection, type ShownEntry } from './sections/requests-section.js'
import { type ShownState, scenarioSection } from './sections/scenario-section.js'

interface PanelOptions {
  /** The corner panel of a page (devtools): compact, its ids prefixed. */
  compact: boolean
  /** The root the panel lives in: what has focus is asked of it. */
  root(): Document | ShadowRoot
  /** The connection's state: `lost` shows a banner, `unauthorized` asks for the token. */
  onStatus?(status: StreamStatus): void
  /** A refused change, besides its message beside the control: a 401 asks for the token. */
  onRefused?(error: AdminError): void
}

/**
 * The QA panel's sections over a connection (scenario, clock, orders,
 * misbehaviour, requests, coverage, the session picker), the same for the server's
 * page and a page's corner panel. Nothing is followed until `start`; `stop`
 * ends every look and timer.
 */
export function createPanel(connection: PanelConnection, options: PanelOptions) {
  let session = ''
  let following: ReturnType<PanelConnection['follow']> | null = null
  let timer: ReturnType<typeof setInterval> | undefined
  /** Says why a change was refused, beside the control that made it. */
  const refused = (out: HTMLElement) => (error: unknown) => {
    out.textContent = error instanceof AdminError ? error.message : `The simulator cannot be reached (${String(error)}).`
    if (error instanceof AdminError) options.onRefused?.(error)
  }
  const ctx: PanelContext = {
    id: (name) => (options.compact ? `sim-${name}` : name),
    admin: () => connection.admin(session),
    compact: options.compact,
    unsaved: connection.unsaved,
    focused: () => options.root().activeElement,
    run(out, change) {
      out.textContent = ''
      change().then(() => following?.look(), refused(out))
    },
  }
  const [scenario, clock, orders] = [scenarioSection(ctx), clockSection(ctx), ordersSection(ctx)]
  const [misbehaviour, requests, coverage] = [misbehaviourSection(ctx), requestsSection(ctx), coverageSection(ctx)]
  const sections = { scenario, clock, orders, misbehaviour, requests, coverage }
  const picker = h('select', { id: ctx.id('session') })
  const sessions = h('label', { hidden: !connection.sessionsAlways }, 'Session', picker)

  function showSessions(list: readonly { id: string; scenario: string }[]): void {
    const choices = [['', 'Default (no session)'], ...list.map(({ id, scenario }) => [id, `${id} (${scenario})`])]
    if (session !== '' && !list.some(({ id }) => id === session)) choices.push([session, session])
    sessions.hidden = !connection.sessionsAlways && choices.length === 1
    if (ctx.focused() === picker) return
    picker.replaceChildren(...choices.map(([value = '', label = '']) => h('option', { value }, label)))
    picker.value = session
  }
  function onEvent({ event, data }: PanelEvent): void {
    if (event === 'state') {
      for (const shown of [scenario, clock]) shown.show(data as ShownState)
      orders.show((data as ShownState).orders)
    } else if (event === 'requests') sections.requests.show(data as { reset: boolean; entries: ShownEntry[] })
    else if (event === 'controls') sections.misbehaviour.show(data as ShownControls)
    else if (event === 'coverage') sections.coverage.show(data as ShownCoverage)
    else if (event === 'sessions') showSessions(data as { id: string; scenario: string }[])
  }
  function stop(): void {
    following?.stop()
    following = null
    clearInterval(timer)
  }
  function start(): void {
    stop()
    following = connection.follow(session, onEvent, (status) => options.onStatus?.(status))
    scenario.load()
    timer = setInterval(clock.tick, 1000)
  }
  picker.addEventListener('change', () => {
    session = picker.value
    start()
  })
  return { sections, sessions, start, stop }
}
