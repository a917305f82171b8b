import type { SkipCategory } from '../../core/proxy/record.js'

// Why import-har left an entry out, counted for its one summary line, and which of those --strict refuses.

/** Each reason an entry is left out: recording's (record.ts) and import-har's own. */
export type HarSkip =
  | SkipCategory
  | 'bad order list'
  | 'bad pet record'
  | 'over the route limit'
  | 'repeated'
  | 'cached'
  | 'preflight'
  | 'other method'
  | 'outside the base'

interface Shown {
  /** The words after a count of 2 or more. */
  many: string
  /** Whether --strict refuses it: an answer of the service's own that the scenario cannot hold. */
  refused: boolean
}

/**
 * In the order a summary lists them at equal counts. Not refused by --strict: what holds no answer of
 * the service's own (a 304, a preflight, status 0), what is no API call (outside the base), an answer
 * the simulator gives itself (a spec operation, which the traffic lines name by outcome) and a later
 * answer to a request already taken.
 */
const SHOWN: Readonly<Record<HarSkip, Shown>> = {
  'not JSON': { many: 'not JSON', refused: true },
  image: { many: 'images', refused: true },
  binary: { many: 'binary', refused: true },
  'server error': { many: 'server errors', refused: true },
  'too large': { many: 'too large', refused: true },
  'query too large': { many: 'query too large', refused: true },
  'query not held': { many: 'query not held', refused: true },
  'not a route': { many: 'not a route', refused: true },
  'carries the key': { many: 'carry the key', refused: true },
  'bad order list': { many: 'bad order lists', refused: true },
  'bad pet record': { many: 'bad pet records', refused: true },
  'over the route limit': { many: 'over the route limit', refused: true },
  'other method': { many: 'other methods', refused: true },
  'spec operation': { many: 'spec operations', refused: false },
  repeated: { many: 'repeated', refused: false },
  cached: { many: 'cached', refused: false },
  preflight: { many: 'preflights', refused: false },
  'no answer': { many: 'no answer', refused: false },
  'outside the base': { many: 'outside the base', refused: false },
}
const ORDER = Object.keys(SHOWN) as HarSkip[]

/** The skipped entries of one import: counts per reason (a fixed set: the line stays short), and the first --strict refuses. */
export function skippedEntries() {
  const counts = new Map<HarSkip, number>()
  let refused: { index: number; line: string } | undefined
  return {
    /** Counts `count` entries (one by default); `line` says the entry at `index` for --strict ("entry 3 (GET /v1/x): the body is ..."). */
    add(category: HarSkip, index: number, line: string, count = 1): void {
      if (count === 0) return
      counts.set(category, (counts.get(category) ?? 0) + count)
      if (SHOWN[category].refused && (refused === undefined || index < refused.index)) refused = { index, line }
    },
    /** The first entry --strict refuses, in the HAR's order. */
    refused: (): string | undefined => refused?.line,
    /** `skipped 3: 1 not JSON, 1 image, 1 server error` (most first), or undefined when none was. */
    summary(): string | undefined {
      const total = [...counts.values()].reduce((sum, count) => sum + count, 0)
      if (total === 0) return undefined
      const parts = ORDER.filter((category) => counts.has(category))
        .sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0))
        .map((category) => {
          const count = counts.get(category) ?? 0
          return `${count} ${count === 1 ? category : SHOWN[category].many}`
        })
      return `skipped ${total}: ${parts.join(', ')}`
    },
  }
}
