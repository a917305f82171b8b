// A tiny app with no framework: it lists the orders of the Petstore Orders Service and cancels one.
// The API's address comes from ?api=..., so a test can point it anywhere.
const API = new URLSearchParams(location.search).get('api') ?? 'http://127.0.0.1:4010/v1'
const HEADERS = { Authorization: 'Bearer petstore-test-key' }

const status = document.getElementById('status')
const error = document.getElementById('error')
const table = document.querySelector('table')
const rows = document.querySelector('tbody')

/** The message of an Error body, or the status when there is none. */
async function reason(response) {
  try {
    const body = await response.json()
    if (typeof body.message === 'string') return body.message
  } catch {
    // No JSON body.
  }
  return `HTTP ${response.status}`
}

async function cancel(order, row) {
  error.textContent = ''
  const response = await fetch(`${API}/store/orders/${order.id}`, { method: 'DELETE', headers: HEADERS })
  if (response.status === 204) {
    row.querySelector('[data-status]').textContent = 'cancelled'
    row.querySelector('button').remove()
  } else {
    error.textContent = `Order ${order.id} could not be cancelled: ${await reason(response)}`
  }
}

function render(orders) {
  for (const order of orders) {
    const row = document.createElement('tr')
    row.dataset.orderId = String(order.id)
    for (const value of [order.id, order.petId, order.quantity, order.shipDate?.slice(0, 10)]) {
      const cell = document.createElement('td')
      cell.textContent = String(value ?? '')
      row.append(cell)
    }
    const state = document.createElement('td')
    state.dataset.status = ''
    state.textContent = order.status ?? (order.complete ? 'shipped' : 'open')
    const action = document.createElement('td')
    const button = document.createElement('button')
    button.textContent = `Cancel order ${order.id}`
    button.addEventListener('click', () => cancel(order, row))
    action.append(button)
    row.append(state, action)
    rows.append(row)
  }
}

async function load() {
  const response = await fetch(`${API}/store/orders`, { headers: HEADERS })
  if (!response.ok) {
    status.textContent = ''
    error.textContent = `The orders could not be loaded: ${await reason(response)}`
    return
  }
  const orders = await response.json()
  status.textContent = orders.length === 0 ? 'You have no orders.' : `${orders.length} orders`
  table.hidden = orders.length === 0
  render(orders)
}

load().catch((failure) => {
  status.textContent = ''
  error.textContent = `The orders could not be loaded: ${failure.message}`
})
