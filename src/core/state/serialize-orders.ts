import type { OrderRecord } from './order-store.js'

/**
 * Writes orders as the list operation's JSON body. Written by hand rather
 * than with JSON.stringify so that int64 ids beyond 2^53 keep every digit
 * (they are stored as decimal strings) and absent fields are left out.
 */
export function serializeOrders(records: readonly OrderRecord[], exposeStatus: boolean): string {
  const parts: string[] = []
  for (const record of records) {
    let json = `{"id":${record.id}`
    if (record.petId !== null) json += `,"petId":${record.petId}`
    if (record.quantity !== null) json += `,"quantity":${record.quantity}`
    if (record.shipDate !== null) json += `,"shipDate":${JSON.stringify(record.shipDate)}`
    if (record.complete !== null) json += `,"complete":${record.complete}`
    if (exposeStatus) json += `,"status":"${record.status}"`
    parts.push(`${json}}`)
  }
  return `[${parts.join(',')}]`
}
