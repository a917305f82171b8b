import { AdminError } from '../core/admin/admin-client.js'
import type { PanelConnection, PanelContext, StreamStatus } from './connection.js'
import { h } from './dom.js'
import { clockSection } from './sections/clock-section.js'
import { misbehaviourSection, type ShownControls } from './sections/misbehaviour-section.js'
import { ordersSection } from './sections/orders-section.js'
import { requestsSection, type ShownEntry } from './sections/requests-section.js'
import { type ShownState, scenarioSection } from './sections/scenario-section.js'

export interface PanelOptions {
  /** The corner panel of a page (devtools): compact, its ids prefixed. */
  compact: boolean
  /** The root the panel lives in: what has focus is asked of it. */
  root(): Document | ShadowRoot
  /** The connection's state: `lost` shows a banner, `unauthorized` asks for the token. */
  onStatus?(status: StreamStatus): void
  /** A refused change (an `AdminError`), besides its message beside the control: a 401 asks for the token. */
  onRefused?(error: AdminError): void
}

/**
 * The QA panel's sections over a connection: scenario, clock, orders,
 * misbehaviour, requests and the session picker, each built once for both
 * places (the server's page and a page's corner panel). Nothing is followed
 * until `start`; `stop` ends every look and timer.
 */
export function createPanel(connection: PanelConnection, options: PanelOptions) {
  let session = ''
  let following: { stop(): void; look(): void } | null = null
  let timer: ReturnType<typeof setInterval> | undefined
  const ctx: PanelContext = {
    id: (name) => (options.compact ? `sim-${name}` : name),
    admin: () => connection.admin(session),
    compact: options.compact,
    focused: () => options.root().activeElement,
    run(out, change) {
      out.textContent = ''
      change().then(
        () => following?.look(),
        (error: unknown) => {
          if (error instanceof AdminError) options.onRefused?.(error)
          out.textContent = error instanceof AdminError ? error.message : `The simulator cannot be reached (${String(error)}).`
        },
      )
    },
  }
  const sections = {
    scenario: scenarioSection(ctx),
    clock: clockSection(ctx),
    orders: ordersSection(ctx),
    misbehaviour: misbehaviourSection(ctx),
    requests: requestsSection(ctx),
  }
  const sessionSelect = h('select', { id: ctx.id('session') })
  const sessions = h('label', { hidden: !connection.sessionsAlways }, 'Session', sessionSelect)

  function showSessions(list: readonly { id: string; scenario: string }[]): void {
    const choices = [['', 'Default (no session)'], ...list.map(({ id, scenario }) => [id, `${id} (${scenario})`])]
    if (session !== '' && !list.some(({ id }) => id === session)) choices.push([session, session])
    sessions.hidden = !connection.sessionsAlways && choices.length === 1
    if (ctx.focused() === sessionSelect) return
    sessionSelect.replaceChildren(...choices.map(([value = '', label = '']) => h('option', { value }, label)))
    sessionSelect.value = session
  }
  function onEvent({ event, data }: { event: string; data: unknown }): void {
    if (event === 'state') {
      sections.scenario.show(data as ShownState)
      sections.orders.show((data as ShownState).orders)
      sections.clock.show(data as ShownState)
    } else if (event === 'requests') sections.requests.show(data as { reset: boolean; entries: ShownEntry[] })
    else if (event === 'controls') sections.misbehaviour.show(data as ShownControls)
    else if (event === 'sessions') showSessions(data as { id: string; scenario: string }[])
  }
  function start(): void {
    stop()
    following = connection.follow(session, onEvent, (status) => options.onStatus?.(status))
    sections.scenario.load()
    timer = setInterval(sections.clock.tick, 1000)
  }
  function stop(): void {
    following?.stop()
    following = null
    clearInterval(timer)
  }
  sessionSelect.addEventListener('change', () => {
    session = sessionSelect.value
    start()
  })
  return { sections, sessions, start, stop }
}
