import type { OrderRecord } from './order-store.js'

/** Orders written to text at a time: their strings die before a scavenge could find them alive. */
const BATCH = 64

function orderJson(record: OrderRecord, exposeStatus: boolean): string {
  let json = `{"id":${record.id}`
  if (record.petId !== null) json += `,"petId":${record.petId}`
  if (record.quantity !== null) json += `,"quantity":${record.quantity}`
  if (record.shipDate !== null) json += `,"shipDate":${JSON.stringify(record.shipDate)}`
  if (record.complete !== null) json += `,"complete":${record.complete}`
  if (exposeStatus) json += `,"status":"${record.status}"`
  return `${json}}`
}

/**
 * Writes orders as the list operation's JSON body, in UTF-8. Written by hand
 * rather than with JSON.stringify so that int64 ids beyond 2^53 keep every
 * digit (they are stored as decimal strings) and absent fields are left out.
 * Written into bytes a few orders at a time: a list of 10,000 orders held as
 * strings until the end (3 MB of them) grew V8's young generation for good
 * (docs/performance.md).
 */
export function serializeOrders(records: readonly OrderRecord[], exposeStatus: boolean): Uint8Array {
  const encoder = new TextEncoder()
  const chunks: Uint8Array[] = []
  let length = 0
  for (let start = 0; start === 0 || start < records.length; start += BATCH) {
    const batch = records.slice(start, start + BATCH).map((record) => orderJson(record, exposeStatus))
    const chunk = encoder.encode(`${start === 0 ? '[' : ','}${batch.join(',')}${start + BATCH < records.length ? '' : ']'}`)
    chunks.push(chunk)
    length += chunk.byteLength
  }
  const bytes = new Uint8Array(length)
  length = 0
  for (const chunk of chunks) {
    bytes.set(chunk, length)
    length += chunk.byteLength
  }
  return bytes
}
