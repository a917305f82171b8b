import { AdminApi, AdminError } from './admin-api.js'
import { followEvents, type StreamStatus } from './event-stream.js'
import { type Change, type OrdersState, orderControls } from './order-controls.js'
import { describeLatency, FAULT_PRESETS } from '../ui/fault-presets.js'
import { byId, field, type PanelEntry, type PanelFault, renderFaults, renderRequests, replaceOptions } from './render.js'

/** The most requests the panel keeps (the server's journal keeps 1000 by default). */
const MAX_KEPT = 5000

interface Controls {
  latency: Record<string, { min: number; max: number }> | null
  faults: PanelFault[]
  rateLimit: { limit: number; windowSeconds: number } | null
}

/** A number where the text is one, else the text itself, for the server to refuse with its own message. */
const numberOr = (text: string): number | string =>
  /^-?\d+(\.\d+)?$/.test(text) && Number.isSafeInteger(Math.trunc(Number(text))) ? Number(text) : text

function startPanel(): void {
  const api = new AdminApi()
  const scenarioSelect = byId<HTMLSelectElement>('scenario')
  const sessionSelect = byId<HTMLSelectElement>('session')
  const filter = byId<HTMLFormElement>('requests-filter')
  let entries: PanelEntry[] = []
  let stopEvents: () => void = () => undefined

  /** Runs one change; a refusal is shown next to the control that made it, and nothing else changes. */
  async function change(errorId: string, run: () => Promise<unknown>): Promise<void> {
    const out = byId(errorId)
    out.textContent = ''
    try {
      await run()
    } catch (error) {
      out.textContent = error instanceof AdminError ? error.message : `The simulator cannot be reached (${String(error)}).`
    }
  }

  const showRequests = () => renderRequests(entries, field(filter, 'operation'), field(filter, 'status'))
  const removeFault = (id: number) => void change('preset-error', () => api.call('DELETE', `/faults/${id}`))
  const showOrders = orderControls(api, change)

  function onEvent(event: string, data: unknown): void {
    if (event === 'state') {
      const state = data as OrdersState & { scenario: string; description: string; seed: number | null }
      byId('scenario-now').textContent =
        `Now: ${state.scenario} (${state.description})${state.seed === null ? '' : `, seed ${state.seed}`}.`
      if (document.activeElement !== scenarioSelect) scenarioSelect.value = state.scenario
      showOrders(state)
    } else if (event === 'requests') {
      const update = data as { reset: boolean; entries: PanelEntry[] }
      entries = (update.reset ? update.entries : [...entries, ...update.entries]).slice(-MAX_KEPT)
      showRequests()
    } else if (event === 'controls') {
      const controls = data as Controls
      renderFaults(controls.faults, removeFault)
      byId('latency-now').textContent = describeLatency(controls.latency)
      byId('rate-now').textContent =
        controls.rateLimit === null ? 'Now: none.' : `Now: ${controls.rateLimit.limit} per ${controls.rateLimit.windowSeconds} s.`
    } else if (event === 'sessions') {
      const sessions = data as { id: string; scenario: string }[]
      const options = [
        { value: '', label: 'Default (no session)' },
        ...sessions.map(({ id, scenario }) => ({ value: id, label: `${id} (${scenario})` })),
      ]
      if (api.session !== '' && !sessions.some(({ id }) => id === api.session)) options.push({ value: api.session, label: api.session })
      if (document.activeElement !== sessionSelect) replaceOptions(sessionSelect, options, api.session)
    }
  }

  function onStatus(status: StreamStatus): void {
    const banner = byId('banner')
    banner.hidden = status !== 'lost'
    banner.textContent = status === 'lost' ? 'The connection to the simulator was lost; reconnecting…' : ''
  }

  async function loadScenarios(): Promise<void> {
    const list = (await api.call('GET', '/scenarios')) as { name: string; builtin: boolean; current: boolean }[]
    const current = list.find((scenario) => scenario.current)?.name ?? ''
    replaceOptions(
      scenarioSelect,
      list.map(({ name, builtin }) => ({ value: name, label: builtin ? name : `${name} (the server's file)` })),
      current,
    )
  }

  function connect(): void {
    stopEvents()
    entries = []
    stopEvents = followEvents(api, onEvent, onStatus)
    void change('scenario-error', loadScenarios)
  }

  wireForms(api, change, showRequests)
  sessionSelect.addEventListener('change', () => {
    api.session = sessionSelect.value
    connect()
  })
  api.onUnauthorized = () => {
    const form = byId('token-form')
    if (!form.hidden) return
    form.hidden = false
    byId('token').focus()
  }
  byId<HTMLFormElement>('token-form').addEventListener('submit', (event) => {
    event.preventDefault()
    api.setToken(byId<HTMLInputElement>('token').value)
    byId('token-form').hidden = true
    connect()
  })
  connect()
}

/** The forms and buttons that change the simulator. */
function wireForms(api: AdminApi, change: Change, showRequests: () => void): void {
  const on = (id: string, type: string, listener: (form: HTMLFormElement) => Promise<unknown>, errorId: string) =>
    byId(id).addEventListener(type, (event) => {
      event.preventDefault()
      const form = (event.currentTarget as HTMLElement).closest('form') as HTMLFormElement
      void change(errorId, () => listener(form))
    })
  on(
    'scenario-form',
    'submit',
    (form) => {
      const seed = field(form, 'seed')
      return api.call('POST', '/reset', { scenario: field(form, 'scenario'), ...(seed === '' ? {} : { seed: numberOr(seed) }) })
    },
    'scenario-error',
  )
  on('reset', 'click', () => api.call('POST', '/reset', {}), 'scenario-error')
  on(
    'latency-form',
    'submit',
    (form) => {
      const settings = Object.fromEntries(
        ['default', 'listOrders', 'cancelOrder', 'getPetById']
          .map((name) => [name, numberOr(field(form, name))])
          .filter(([, value]) => value !== ''),
      )
      return api.call('PUT', '/latency', Object.keys(settings).length === 0 ? 'null' : settings)
    },
    'latency-error',
  )
  on('latency-off', 'click', () => api.call('PUT', '/latency', 'null'), 'latency-error')
  on(
    'fault-form',
    'submit',
    (form) => {
      const fault: Record<string, unknown> = { operation: field(form, 'operation'), kind: field(form, 'kind') }
      for (const name of ['status', 'times', 'probability', 'durationMs'])
        if (field(form, name) !== '') fault[name] = numberOr(field(form, name))
      if (field(form, 'orderId') !== '') fault['orderId'] = field(form, 'orderId')
      return api.call('POST', '/faults', fault)
    },
    'fault-error',
  )
  on(
    'rate-form',
    'submit',
    (form) => api.call('PUT', '/rate-limit', field(form, 'limit') === '' ? 'null' : JSON.stringify(field(form, 'limit'))),
    'rate-error',
  )
  on('rate-off', 'click', () => api.call('PUT', '/rate-limit', 'null'), 'rate-error')
  on('clear-requests', 'click', () => api.call('DELETE', '/requests'), 'requests-error')
  byId('requests-filter').addEventListener('input', showRequests)
  const presets = byId('presets')
  for (const { label, fault } of FAULT_PRESETS) {
    const button = document.createElement('button')
    button.type = 'button'
    button.textContent = label
    button.addEventListener('click', () => void change('preset-error', () => api.call('POST', '/faults', fault)))
    presets.append(button)
  }
}

startPanel()
