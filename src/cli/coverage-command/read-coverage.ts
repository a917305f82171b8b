// Reads and adds up the coverage files of a run: what `petstore-sim coverage` reports on.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import * as v from 'valibot'
import { Coverage as CoverageSchema } from '../../core/admin/admin-schemas.js'
import type { Coverage, DeprecatedCalls, ProvokedCount } from '../../core/outcome-coverage/coverage-counter.js'
import { SPEC_OUTCOMES } from '../../core/outcome-coverage/outcomes.js'
import { systemErrorCode } from '../../core/system-error-code.js'

/** Bad input: exit 2, one line. */
export class CoverageInputError extends Error {}

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
function readFile(file: string): Coverage {
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
  const unknown = parsed.output.outcomes.find((outcome) => !KNOWN.has(outcome.id))
  if (unknown !== undefined) throw new CoverageInputError(`${file} names an outcome this version does not document: ${unknown.id}.`)
  const notDeprecated = parsed.output.deprecated.find((entry) => !DEPRECATED.has(entry.operation))
  if (notDeprecated !== undefined)
    throw new CoverageInputError(`${file} names ${notDeprecated.operation} as deprecated, which this version does not.`)
  return parsed.output
}

/** Adds `count` to the entry of `key`, made from `entry` the first time. */
function addTo<T extends { count: number } | { calls: number }>(into: Map<string, T>, key: string, entry: T, add: (kept: T) => void) {
  const kept = into.get(key)
  if (kept === undefined) into.set(key, { ...entry })
  else add(kept)
}

/** The coverage of every file, added up, in the shape one file has. */
function mergeCoverage(parts: readonly Coverage[]): Coverage {
  const counts = new Map<string, number>()
  const provoked = new Map<string, ProvokedCount>()
  const deprecated = new Map<string, DeprecatedCalls>()
  for (const part of parts) {
    for (const { id, count } of part.outcomes) counts.set(id, (counts.get(id) ?? 0) + count)
    for (const entry of part.provoked)
      addTo(provoked, `${entry.control} ${entry.id}`, entry, (kept) => {
        kept.count += entry.count
      })
    // The method and path are this version's, not the file's text.
    for (const entry of part.deprecated.map((each) => ({ ...each, ...DEPRECATED.get(each.operation) })))
      addTo(deprecated, entry.operation, entry, (kept) => {
        kept.calls += entry.calls
        // The earliest date any run announced: the one to move off before.
        if (entry.sunset < kept.sunset) kept.sunset = entry.sunset
      })
  }
  const outcomes = SPEC_OUTCOMES.outcomes.map((outcome) => ({ ...outcome, count: counts.get(outcome.id) ?? 0 }))
  return {
    outcomes,
    exercised: outcomes.filter((outcome) => outcome.count > 0).length,
    total: outcomes.length,
    provoked: [...provoked.values()],
    deprecated: [...deprecated.values()],
  }
}

/** Every coverage file of `dirs`, merged; a folder without one is bad input (the suite wrote none there). */
export function readCoverage(dirs: readonly string[]): { coverage: Coverage; files: number } {
  const parts: Coverage[] = []
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
