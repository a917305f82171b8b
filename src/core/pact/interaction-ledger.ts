import type { InteractionFacts } from './build-pact.js'

/** How many distinct interactions a ledger keeps, and how many bytes of them: past either, new ones are counted, not kept. */
export const MAX_LEDGER_INTERACTIONS = 1000
export const MAX_LEDGER_BYTES = 256 * 1024
const FACTS_BYTES = 128

/** The request a pact interaction comes from, as one string: equal strings give the same interaction. */
function keyOf(facts: InteractionFacts): string {
  return `${facts.method} ${facts.path}\n${facts.status} ${facts.code}\n${facts.orderId} ${facts.given}\n${facts.authorization}`
}

/**
 * The interactions a journal let go (cleared, or pushed out of its ring), kept
 * once each so that a pact still holds them: `journal.clear()` before each
 * test must not empty the pact written after the last one.
 */
export function createInteractionLedger() {
  const kept = new Map<string, InteractionFacts>()
  let bytes = 0
  let dropped = 0
  return {
    /** True when the ledger holds the interaction (kept now or before), false when it did not fit. */
    keep(facts: InteractionFacts): boolean {
      const key = keyOf(facts)
      if (kept.has(key)) return true
      const cost = key.length + (facts.message?.length ?? 0) + FACTS_BYTES
      if (kept.size >= MAX_LEDGER_INTERACTIONS || bytes + cost > MAX_LEDGER_BYTES) {
        dropped++
        return false
      }
      bytes += cost
      const { method, path, status, operation, orderId, given, authorization, code, message } = facts
      kept.set(key, { method, path, status, operation, orderId, given, authorization, code, message })
      return true
    },
    /** The kept interactions, oldest first. */
    facts: (): readonly InteractionFacts[] => [...kept.values()],
    /** How many requests' interactions did not fit (each time one arrived, so a count, not a set: it costs no memory). */
    leftOut: () => dropped,
  }
}
