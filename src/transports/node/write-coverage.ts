import { randomUUID } from 'node:crypto'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Coverage } from '../../core/outcome-coverage/coverage-counter.js'

/** Where coverage files go unless told otherwise, and what `petstore-sim coverage` reads without a folder named. */
export const DEFAULT_COVERAGE_DIR = 'petstore-coverage'

/**
 * Writes one state's coverage to a new file in `petstore-coverage/` (under
 * the working directory, or `options.dir`): one file per call, so that test
 * files and workers add up; `petstore-sim coverage` merges them. The file is
 * whole or absent, never half written. Returns its path.
 * @example
 * afterAll(() => writeCoverage(sim.coverage()))
 */
export function writeCoverage(coverage: Coverage, options: { dir?: string } = {}): string {
  const dir = resolve(options.dir ?? DEFAULT_COVERAGE_DIR)
  mkdirSync(dir, { recursive: true })
  // Unique across workers and calls, with no counter to keep: a time for sorting, then a random part.
  const file = join(dir, `coverage-${Date.now()}-${randomUUID().slice(0, 8)}.json`)
  const partial = `${file}.${process.pid}.tmp`
  writeFileSync(partial, `${JSON.stringify(coverage, null, 2)}\n`)
  renameSync(partial, file)
  return file
}
