import type { OrderStatus } from '../../src/core/glossary.js'
import type { OrderRecord } from '../../src/core/state/order-store.js'

/** An order as the store keeps it, pending by default: what store and lifecycle unit tests fill a state with. */
export const orderRecord = (id: string, status: OrderStatus = 'pending'): OrderRecord => ({
  id,
  petId: '7',
  quantity: 1,
  shipDate: null,
  complete: false,
  status,
})
