// Reads and adds up the coverage files of a run: what `petstore-sim coverage` reports on.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import * as v from 'valibot'
import { Coverage as CoverageSchema } from '../../core/admin/admin-schemas.js'
import {
  type Coverage,
  type CoveredOutcome,
  coverageOf,
  type DeprecatedCalls,
  type ProvokedCount,
  provokedKey,
  type TestOutcomes,
} from '../../core/outcome-coverage/coverage-counter.js'
import { MAX_TESTS } from '../../core/outcome-coverage/current-test.js'
import { SPEC_OUTCOMES } from '../../core/outcome-coverage/outcomes.js'
import { systemErrorCode } from '../../core/system-error-code.js'

/** Bad input: exit 2, one line. */
export class CoverageInputError extends Error {}

/** What `petstore-sim coverage` merges: every outcome names the tests that saw it, and `tests` is always there. */
export interface MergedCoverage extends Coverage {
  outcomes: (CoveredOutcome & { tests: string[] })[]
  /** Every test of every file that named its tests (a name in two files, as two simulators in one test, once). */
  tests: TestOutcomes[]
}

/** A coverage file as read: of this version, or of an older one (no recipes, no tests). */
type CoverageFile = v.InferOutput<typeof CoverageSchema>

/** The largest coverage file read: one state's is a few KiB, so anything this size is not one. */
const MAX_FILE_BYTES = 4 * 1024 * 1024

const KNOWN: ReadonlySet<string> = new Set(SPEC_OUTCOMES.outcomes.map((outcome) => outcome.id))
const DEPRECATED = new Map(SPEC_OUTCOMES.deprecated.map((entry) => [entry.operation as string, entry]))

/** The `.json` files of a folder, sorted; a missing folder or a file in its place is bad input. */
function filesOf(dir: string): string[] {
  try {
    if (!statSync(dir).isDirectory()) throw new CoverageInputError(`${dir} is not a folder.`)
    return readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => join(dir, name))
  } catch (error) {
    if (error instanceof CoverageInputError) throw error
    const code = systemErrorCode(error)
    throw new CoverageInputError(`Failed to read the folder ${dir}: ${code === 'ENOENT' ? 'no such folder' : (code ?? String(error))}.`)
  }
}

/** Where a file really is, links followed; a link to nowhere is bad input. */
function realpathOf(file: string): string {
  try {
    return realpathSync(file)
  } catch (error) {
    throw new CoverageInputError(`Failed to read ${file}: ${systemErrorCode(error) ?? String(error)}.`)
  }
}

/** One file's coverage, checked against the schema `sim.coverage()` answers with and against this version's outcomes. */
function readFile(file: string): CoverageFile {
  let text: string
  try {
    const stat = statSync(file)
    // A pipe or a device named *.json would never end, or never stop giving bytes.
    if (!stat.isFile()) throw new CoverageInputError(`${file} is not a coverage file: it is not a regular file.`)
    const { size } = stat
    if (size > MAX_FILE_BYTES) throw new CoverageInputError(`${file} is not a coverage file: ${size} bytes, more than one ever is.`)
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if (error instanceof CoverageInputError) throw error
    throw new CoverageInputError(`Failed to read ${file}: ${systemErrorCode(error) ?? String(error)}.`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new CoverageInputError(`${file} is not a coverage file: it is not JSON.`)
  }
  // Another JSON file left in the folder (a package.json, a report) is told apart in plain words first.
  if (typeof json !== 'object' || json === null || !Array.isArray((json as { outcomes?: unknown }).outcomes))
    throw new CoverageInputError(
      `${file} is not a coverage file: it has no "outcomes" list (writeCoverage and GET /__sim/coverage write one).`,
    )
  const parsed = v.safeParse(CoverageSchema, json)
  if (!parsed.success) {
    const [issue] = parsed.issues
    const at = v.getDotPath(issue) ?? 'the top level'
    throw new CoverageInputError(`${file} is not a coverage file (as sim.coverage() or writeCoverage() gives): ${at}: ${issue.message}.`)
  }
  const unknown =
    parsed.output.outcomes.find((outcome) => !KNOWN.has(outcome.id))?.id ??
    parsed.output.tests?.flatMap((entry) => entry.outcomes).find((id) => !KNOWN.has(id))
  if (unknown !== undefined) throw new CoverageInputError(`${file} names an outcome this version does not document: ${unknown}.`)
  const notDeprecated = parsed.output.deprecated.find((entry) => !DEPRECATED.has(entry.operation))
  if (notDeprecated !== undefined)
    throw new CoverageInputError(`${file} names ${notDeprecated.operation} as deprecated, which this version does not.`)
  return parsed.output
}

/** What a list's recipe asks for under the base: the base is what comes before it. */
const LIST_PATH = '/store/orders'
/** A base path as `--base-path` takes one: segments of plain characters (what a file says is not trusted further). */
const PLAIN_BASE = /^(\/[A-Za-z0-9._~-]{1,64}){0,16}$/

/**
 * The API base the files' simulators served, read from their list recipes, when every file that has one
 * agrees: the recipes printed are made again for it (never the files' texts). Otherwise the default, /v1.
 */
function basePathOf(parts: readonly CoverageFile[]): string | undefined {
  const bases = new Set<string>()
  for (const part of parts) {
    const recipe = part.outcomes.find((outcome) => outcome.id === 'listOrders.200')?.recipe
    const last = recipe?.steps.at(-1)
    if (last === undefined || !('request' in last)) continue
    const { path } = last.request
    if (!path.endsWith(LIST_PATH)) return undefined
    bases.add(path.slice(0, -LIST_PATH.length))
  }
  const [base] = bases
  return bases.size === 1 && base !== undefined && PLAIN_BASE.test(base) ? base || '/' : undefined
}

/** The coverage of every file, added up, in the shape one file has, each outcome with the tests that saw it. */
function mergeCoverage(parts: readonly CoverageFile[]): MergedCoverage {
  const counts = new Map<string, number>()
  const provoked = new Map<string, ProvokedCount>()
  const deprecated = new Map<string, DeprecatedCalls>()
  // A test named in two files (two simulators, or a session and the default state, in one test) is one test.
  const tests = new Map<string, Set<string>>()
  let testsLeftOut = 0
  for (const part of parts) {
    for (const { id, count } of part.outcomes) counts.set(id, (counts.get(id) ?? 0) + count)
    for (const entry of part.provoked) {
      const kept = provoked.get(provokedKey(entry))
      if (kept === undefined) provoked.set(provokedKey(entry), { ...entry })
      else kept.count += entry.count
    }
    for (const entry of part.deprecated) {
      const kept = deprecated.get(entry.operation)
      // The method and path are this version's, not the file's text.
      if (kept === undefined) deprecated.set(entry.operation, { ...entry, ...DEPRECATED.get(entry.operation) })
      else {
        kept.calls += entry.calls
        // The earliest date any run announced: the one to move off before.
        if (entry.sunset < kept.sunset) kept.sunset = entry.sunset
      }
    }
    for (const { name, outcomes } of part.tests ?? []) {
      const seen = tests.get(name) ?? new Set()
      for (const id of outcomes) seen.add(id)
      tests.set(name, seen)
    }
    testsLeftOut += part.testsLeftOut ?? 0
  }
  const order = SPEC_OUTCOMES.outcomes.map((outcome) => outcome.id)
  // The merged result keeps the bound a file has, so that it merges again (CI shards merged in two steps).
  const all = [...tests]
  testsLeftOut += Math.max(0, all.length - MAX_TESTS)
  const named = all.slice(0, MAX_TESTS).map(([name, seen]) => ({ name, outcomes: order.filter((id) => seen.has(id)) }))
  const merged = coverageOf(counts, [...provoked.values()], [...deprecated.values()], {
    basePath: basePathOf(parts),
    tests: named,
    testsLeftOut,
  })
  return {
    ...merged,
    outcomes: merged.outcomes.map((outcome) => ({ ...outcome, tests: testsSeeing(named, outcome.id) })),
    tests: named,
  }
}

/** The names of the tests that saw outcome `id`, in `tests`' order. */
const testsSeeing = (tests: readonly TestOutcomes[], id: string): string[] =>
  tests.filter((test) => test.outcomes.includes(id)).map((test) => test.name)

/**
 * Per documented outcome id (in the document's order), the names of the tests
 * that saw it: what `--by-test` prints. An outcome with a count and no name was
 * seen outside a named test (a file of an older version, a request in `beforeAll`).
 */
export function testsByOutcome(coverage: MergedCoverage): Map<string, string[]> {
  return new Map(coverage.outcomes.map((outcome) => [outcome.id, [...outcome.tests]]))
}

/** Every coverage file of `dirs`, merged; a folder without one is bad input (the suite wrote none there). */
export function readCoverage(dirs: readonly string[]): { coverage: MergedCoverage; files: number } {
  const parts: CoverageFile[] = []
  // A folder named twice, or through a link, is read once: its counts must not double.
  const read = new Set<string>()
  for (const dir of dirs) {
    const files = filesOf(dir)
    if (files.length === 0) throw new CoverageInputError(`${dir} holds no coverage file (*.json): did the suite call writeCoverage?`)
    for (const file of files) {
      const real = realpathOf(file)
      if (read.has(real)) continue
      read.add(real)
      parts.push(readFile(file))
    }
  }
  return { coverage: mergeCoverage(parts), files: parts.length }
}
