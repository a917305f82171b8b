import { jsonText } from '../json-text.js'
import type { ActiveScenario } from './instance.js'
import { remembered } from './scenario-cache.js'

/** Two 32-bit FNV-1a hashes with different offsets, fed the same text: 64 bits, enough to tell an edited scenario. */
function hasher() {
  let low = 0x811c9dc5
  let high = 0x050c5d1f
  return {
    add(text: string) {
      for (let index = 0; index < text.length; index++) {
        const code = text.charCodeAt(index)
        low = Math.imul(low ^ code, 0x01000193)
        high = Math.imul(high ^ code, 0x01000193)
      }
    },
    hex: () => (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0'),
  }
}

/**
 * What a state's own orders stand on: the scenario as loaded (its orders, generated or listed, its
 * routes and settings) at its seed. A restore compares it, so that an edited scenario file or an upgrade
 * that generates other orders starts the state afresh instead of mixing the two. Read once per loaded
 * scenario (about 100 ms for 100,000 orders), then remembered in `memo` while the scenario is held.
 */
export function fingerprintOf(active: ActiveScenario, memo: WeakMap<ActiveScenario, string>): string {
  return remembered(memo, active, () => {
    const hash = hasher()
    // The orders one by one: a 100,000-order scenario is never one 15 MB string.
    for (const order of active.initialOrders) hash.add(jsonText(order))
    hash.add(jsonText({ ...active.scenario, orders: undefined, seed: active.seed ?? null }))
    return hash.hex()
  })
}
