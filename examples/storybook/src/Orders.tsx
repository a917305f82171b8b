import { useCallback, useEffect, useState } from 'react'

const ORDERS = 'https://api.petstore.example/v1/store/orders'
const AUTH = { Authorization: 'Bearer petstore-test-key' }

interface Order {
  id: number
  petId?: number
  quantity?: number
  status?: string
}

interface ErrorBody {
  code: string
  message: string
  status: number
}

type List = { kind: 'loading' } | { kind: 'loaded'; orders: Order[] } | { kind: 'failed'; error: string }

/** The Error body of a failed answer as one line: "409 order_already_shipped: ...". */
async function describeFailure(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as ErrorBody | null
  return body === null ? `${response.status} (no Error body)` : `${body.status} ${body.code}: ${body.message}`
}

/** Lists the store's orders with a Cancel button each; shows the API's Error body when a call fails. */
export function Orders() {
  const [list, setList] = useState<List>({ kind: 'loading' })
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState<number | null>(null)

  const load = useCallback(async () => {
    const response = await fetch(ORDERS, { headers: AUTH })
    setList(response.ok ? { kind: 'loaded', orders: (await response.json()) as Order[] } : { kind: 'failed', error: await describeFailure(response) })
  }, [])

  useEffect(() => {
    load().catch((error: unknown) => setList({ kind: 'failed', error: String(error) }))
  }, [load])

  async function cancel(id: number) {
    setBusy(id)
    setNotice(null)
    try {
      const response = await fetch(`${ORDERS}/${id}`, { method: 'DELETE', headers: AUTH })
      setNotice(response.status === 204 ? { ok: true, text: `Order ${id} cancelled` } : { ok: false, text: await describeFailure(response) })
      if (response.status === 204) await load()
    } catch (error) {
      setNotice({ ok: false, text: String(error) })
    } finally {
      setBusy(null)
    }
  }

  return (
    <section>
      <h1>Orders</h1>
      {notice !== null && <p role={notice.ok ? 'status' : 'alert'}>{notice.text}</p>}
      {list.kind === 'loading' && <p role="status">Loading orders…</p>}
      {list.kind === 'failed' && <p role="alert">{list.error}</p>}
      {list.kind === 'loaded' && list.orders.length === 0 && <p>No orders</p>}
      {list.kind === 'loaded' && list.orders.length > 0 && (
        <ul>
          {list.orders.map((order) => (
            <li key={order.id}>
              Order {order.id}: pet {order.petId} × {order.quantity}
              {order.status !== undefined && <span data-testid={`status-${order.id}`}> ({order.status})</span>}{' '}
              <button type="button" aria-label={`Cancel order ${order.id}`} disabled={busy !== null} onClick={() => void cancel(order.id)}>
                {busy === order.id ? 'Cancelling…' : 'Cancel'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
