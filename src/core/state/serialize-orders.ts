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
  let bytes = new Uint8Array(2 + records.length * 100)
  let length = 0
  const write = (text: string) => {
    let rest = text
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, bytes.subarray(length))
      length += written
      if (read === rest.length) return
      rest = rest.slice(read)
      const grown = new Uint8Array(bytes.length * 2 + rest.length * 3)
      grown.set(bytes.subarray(0, length))
      bytes = grown
    }
  }
  const parts: string[] = []
  for (let start = 0; start < records.length; start += BATCH) {
    parts.length = 0
    for (let index = start; index < Math.min(start + BATCH, records.length); index++) {
      parts.push(orderJson(records[index] as OrderRecord, exposeStatus))
    }
    write(`${start === 0 ? '[' : ','}${parts.join(',')}`)
  }
  write(records.length === 0 ? '[]' : ']')
  // Exactly the body's length: what a list holds is its body, not the room it was written in.
  return bytes.slice(0, length)
}
