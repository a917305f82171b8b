import type { SimulatorCore } from '../core/simulator/types.js'
import { h } from '../ui/dom.js'
import { inProcessConnection } from '../ui/in-process-connection.js'
import { createPanel } from '../ui/mount-panel.js'
import { PANEL_STYLES } from '../ui/panel-styles.js'

export interface DevtoolsOptions {
  /** Start expanded. Default `false`: a small button in the page's corner. */
  open?: boolean
  /** The element the panel's host goes into. Default `document.body`. */
  container?: HTMLElement
}

export interface DevtoolsHandle {
  /** The host element, `<petstore-sim-devtools>`; the panel is in its open shadow root. */
  readonly element: HTMLElement
  /** Expands or collapses the panel, as its toggle button does. */
  setOpen(open: boolean): void
  /** Removes the panel and stops watching the simulator. */
  unmount(): void
}

/**
 * Draws the QA panel, collapsible, in a corner of the page, steering an
 * in-page simulator: the server's panel's sections over the in-process
 * simulator. It lives in a shadow root, so no style crosses either way, and
 * it watches the simulator only while it is open.
 *
 * @example
 * const sim = await startSimulatorWorker()
 * const devtools = mountDevtools(sim)
 * // later: devtools.unmount()
 * @note From `petstore-orders-simulator/browser`, `mountDevtools` is async: it
 * loads this code on first use, so a page that never calls it never downloads it.
 */
export function mountDevtools(sim: SimulatorCore, options: DevtoolsOptions = {}): DevtoolsHandle {
  const host = document.createElement('petstore-sim-devtools')
  const shadow = host.attachShadow({ mode: 'open' })
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(PANEL_STYLES)
  shadow.adoptedStyleSheets = [sheet]
  const panel = createPanel(inProcessConnection(sim), { compact: true, root: () => shadow })
  const { scenario, misbehaviour, orders, requests, coverage, clock } = panel.sections
  const region = { class: 'body', id: 'sim-devtools-body', role: 'region', 'aria-label': 'Petstore simulator', hidden: true }
  const shown = [scenario, misbehaviour, orders, requests, coverage, clock].map((each) => each.element)
  const body = h('div', region, ...shown, panel.sessions)
  const opens = { type: 'button', class: 'toggle', 'aria-expanded': 'false', 'aria-controls': 'sim-devtools-body' }
  const toggle = h('button', opens, 'Petstore simulator')
  // The toggle first: the keyboard reaches it, then what it opens.
  shadow.append(h('div', { class: 'sim dock' }, toggle, body))
  function setOpen(open: boolean): void {
    body.hidden = !open
    toggle.setAttribute('aria-expanded', String(open))
    // Everything is drawn afresh on opening: nothing was watched while closed.
    if (open) panel.start()
    else panel.stop()
  }
  toggle.addEventListener('click', () => setOpen(body.hidden))
  // Escape closes the panel from anywhere in it and gives the keyboard back to the toggle.
  body.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return
    event.preventDefault()
    setOpen(false)
    toggle.focus()
  })
  ;(options.container ?? document.body).append(host)
  setOpen(options.open === true)
  return {
    element: host,
    setOpen,
    unmount() {
      panel.stop()
      host.remove()
    },
  }
}
