import { parseArgs } from 'node:util'
import { FLAGS, type Flag } from './flags.js'

/** Edits between two words, a swap of two neighbours counting as one, to suggest the flag a typo meant. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  const at = (i: number, j: number) => d[i]?.[j] ?? 0
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1)
      const row = d[i]
      if (row !== undefined) row[j] = best
    }
  }
  return at(a.length, b.length)
}

/** The known name a typo most likely meant: the closest, when a third of its letters or fewer differ; else undefined. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const closest = known.map((each) => ({ each, edits: distance(name, each) })).sort((a, b) => a.edits - b.edits)[0]
  return closest !== undefined && closest.edits <= Math.max(1, Math.floor(name.length / 3)) ? closest.each : undefined
}

/** " Did you mean --port?" for the first unknown flag close to a known one, else ''. */
export function unknownFlagHint(argv: readonly string[], flags: readonly Flag[] = FLAGS): string {
  const names = flags.map((flag) => flag.name)
  for (const arg of argv) {
    const name = /^--([^=]+)/.exec(arg)?.[1]
    if (name === undefined || names.includes(name)) continue
    const closest = closestName(name, names)
    if (closest !== undefined) return ` Did you mean --${closest}?`
  }
  return ''
}

/**
 * `--seed -1` as `--seed=-1`: node's parseArgs refuses a value that starts with a dash
 * ("argument is ambiguous"), which hides the real problem from the user.
 */
export function joinDashedValues(argv: readonly string[], flags: readonly Flag[] = FLAGS): string[] {
  const valued = new Set(flags.filter((flag) => flag.boolean !== true).map((flag) => `--${flag.name}`))
  const joined: string[] = []
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? ''
    const next = argv[index + 1]
    if (valued.has(arg) && next !== undefined && /^-(?!-)/.test(next)) {
      joined.push(`${arg}=${next}`)
      index++
    } else joined.push(arg)
  }
  return joined
}

/** A subcommand's command line as read: each flag's value, every value of a repeatable one, and the words that are no flag. */
type ReadFlags = { values: Record<string, string | string[] | boolean | undefined>; positionals: string[] }

/**
 * A subcommand's command line, read strictly. An unknown or incomplete flag is `usage`'s error
 * naming the flag with a "Did you mean" hint; `repeatable` makes every value flag take many values.
 */
export function readFlags(
  argv: readonly string[],
  flags: readonly Flag[],
  usage: (problem: string) => Error,
  { positionals = false, repeatable = false } = {},
): ReadFlags {
  const options = Object.fromEntries(
    flags.map((flag) => [flag.name, flag.boolean ? { type: 'boolean' as const } : { type: 'string' as const, multiple: repeatable }]),
  )
  try {
    // parseArgs types its values from literal options; these are built from the flag table.
    return parseArgs({ args: joinDashedValues(argv, flags), strict: true, allowPositionals: positionals, options }) as ReadFlags
  } catch (error) {
    // parseArgs quotes the argument at fault, which may be a key: say which flag, never the value.
    const flag = /'(--?[\w-]+)/.exec(error instanceof Error ? error.message : '')?.[1]
    throw usage(`Unknown or incomplete option${flag === undefined ? '' : ` ${flag}`}.${unknownFlagHint(argv, flags)}`)
  }
}
