import { described, interactionKey, pactDocument } from './build-pact.js'
import type { PactDocument, PactInteraction } from './pact-document.js'

type Undescribed = Omit<PactInteraction, 'description'>

const byText = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0)

/**
 * One pact of several between the same consumer and provider (the tests of a
 * run, each with its own session): every distinct interaction once, sorted by
 * description, so the file does not depend on which test finished first.
 */
export function mergePacts(pacts: readonly PactDocument[]): PactDocument {
  const [first] = pacts
  if (first === undefined) throw new Error('mergePacts needs at least one pact.')
  const distinct = new Map<string, { summary: string; interaction: Undescribed }>()
  let leftOut = 0
  for (const pact of pacts) {
    leftOut += pact.metadata['petstore-orders-simulator']?.interactionsLeftOut ?? 0
    for (const { description, ...interaction } of pact.interactions) {
      // A "(2)" told apart two interactions of one pact; the merged pact numbers them afresh.
      const summary = description.replace(/ \(\d+\)$/, '')
      const key = interactionKey(interaction)
      const known = distinct.get(key)
      if (known === undefined || summary < known.summary) distinct.set(key, { summary, interaction })
    }
  }
  const sorted = [...distinct].sort(
    ([leftKey, left], [rightKey, right]) => byText(left.summary, right.summary) || byText(leftKey, rightKey),
  )
  const used = new Set<string>()
  const interactions = sorted.map(([, { summary, interaction }]) => described(interaction, summary, used))
  return pactDocument(first, interactions, leftOut)
}
