// The QA panel at /__sim/: the panel's sections over the admin API of the server that serves the page.
import { form, h } from '../ui/dom.js'
import { httpConnection } from '../ui/http-connection.js'
import { createPanel } from '../ui/mount-panel.js'

const TOKEN_KEY = 'petstore-sim-admin-token'
/** Kept for this tab only (sessionStorage), never in the URL. */
let token = sessionStorage.getItem(TOKEN_KEY) ?? undefined
const banner = h('p', { id: 'banner', role: 'alert', hidden: true })
const tokenInput = h('input', { id: 'token', type: 'password', autocomplete: 'off', required: true })
const useToken = () => {
  token = tokenInput.value
  sessionStorage.setItem(TOKEN_KEY, token)
  tokenForm.hidden = true
  panel.start()
}
const tokenLabel = h('label', {}, 'Admin token', tokenInput)
const tokenForm = form({ id: 'token-form' }, useToken, tokenLabel, h('button', { type: 'submit' }, 'Use token'))
tokenForm.append(h('p', { class: 'hint' }, 'This server requires its admin token. It is kept for this tab only.'))
tokenForm.hidden = true
const askToken = () => {
  if (!tokenForm.hidden) return
  tokenForm.hidden = false
  tokenInput.focus()
}
const panel = createPanel(
  httpConnection(location.origin, () => token),
  {
    compact: false,
    root: () => document,
    onStatus(status) {
      banner.hidden = status !== 'lost'
      banner.textContent = status === 'lost' ? 'The connection to the simulator was lost; reconnecting…' : ''
      if (status === 'unauthorized') askToken()
    },
    onRefused: (error) => error.status === 401 && askToken(),
  },
)
const { scenario, clock, orders, misbehaviour, requests, coverage } = panel.sections
const header = h('header', {}, h('h1', {}, 'Petstore simulator'), banner, panel.sessions)
const main = h('main', {}, scenario.element, clock.element, orders.element, misbehaviour.element, requests.element, coverage.element)
document.body.append(header, tokenForm, main)
panel.start()
