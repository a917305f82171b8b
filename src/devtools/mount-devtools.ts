import { stringifyExactJson } from '../core/exact-json.js'
import { internalsOf, type Revision } from '../core/simulator/internals.js'
import type { SimulatorCore } from '../core/simulator/types.js'
import { misbehaviourSection, scenarioSection } from './controls-sections.js'
import { DEVTOOLS_STYLES } from './devtools-styles.js'
import { h } from './dom.js'
import type { Run } from './orders-section.js'
import { ordersSection } from './orders-section.js'
import { requestsSection } from './requests-section.js'

/** How often an open panel looks for changes: two counters and the controls compared, then only what changed is redrawn. */
const WATCH_MS = 250

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
 * Draws a small collapsible panel in the page that steers an in-page
 * simulator: scenario and reset, fault presets, latency, the orders and the
 * last requests. It lives in a shadow root, so no style crosses either way,
 * and it watches the simulator only while it is open.
 *
 * @example
 * const sim = await startSimulatorWorker()
 * const devtools = mountDevtools(sim)
 * // later: devtools.unmount()
 * @note From `petstore-orders-simulator/browser`, `mountDevtools` is async: it
 * loads this code on first use, so a page that never calls it never downloads it.
 */
export function mountDevtools(sim: SimulatorCore, options: DevtoolsOptions = {}): DevtoolsHandle {
  const internals = internalsOf(sim)
  const host = document.createElement('petstore-sim-devtools')
  const shadow = host.attachShadow({ mode: 'open' })
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(DEVTOOLS_STYLES)
  shadow.adoptedStyleSheets = [sheet]

  let seen: Revision | null = null
  let controlsSeen = ''
  const run: Run = (out, change) => {
    out.textContent = ''
    const failed = (error: unknown) => {
      out.textContent = error instanceof Error ? error.message : String(error)
    }
    try {
      // A change may be sync (addFault) or async (reset): either way the panel shows its outcome at once.
      void Promise.resolve(change()).then(() => refresh(), failed)
    } catch (error) {
      failed(error)
    }
  }
  const scenario = scenarioSection(sim, run)
  const misbehaviour = misbehaviourSection(sim, run)
  const orders = ordersSection(sim, run)
  const requests = requestsSection(sim, run)

  /** Redraws what changed since the last look. */
  function refresh(): void {
    const now = internals.revision(null)
    if (seen === null || now.orders !== seen.orders) {
      scenario.render()
      orders.render()
    }
    if (seen === null || now.recorded !== seen.recorded || now.cleared !== seen.cleared) requests.render()
    seen = now
    // Compared as text: a handful of faults at most, and a fault's order id may be a bigint.
    const controls = stringifyExactJson({ latency: sim.latency(), faults: sim.faults() })
    if (controls !== controlsSeen) misbehaviour.render()
    controlsSeen = controls
  }

  const body = h(
    'div',
    { class: 'body', id: 'sim-devtools-body', role: 'region', 'aria-label': 'Petstore simulator', hidden: true },
    scenario.element,
    misbehaviour.element,
    orders.element,
    requests.element,
  )
  const toggle = h(
    'button',
    { type: 'button', class: 'toggle', 'aria-expanded': 'false', 'aria-controls': 'sim-devtools-body' },
    'Petstore simulator',
  )
  // The toggle first: the keyboard reaches it, then what it opens.
  shadow.append(h('div', { class: 'frame' }, toggle, body))

  let timer: ReturnType<typeof setInterval> | undefined
  function setOpen(open: boolean): void {
    body.hidden = !open
    toggle.setAttribute('aria-expanded', String(open))
    clearInterval(timer)
    timer = undefined
    if (!open) return
    // Everything is drawn afresh on opening: nothing was watched while closed.
    seen = null
    controlsSeen = ''
    refresh()
    timer = setInterval(refresh, WATCH_MS)
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
      clearInterval(timer)
      host.remove()
    },
  }
}
