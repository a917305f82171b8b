import { randomUUID } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseExactJsonFile } from '../../core/exact-json.js'
import { mergePacts } from '../../core/pact/merge-pacts.js'
import type { PactDocument } from '../../core/pact/pact-document.js'
import { pactJson } from '../../core/pact/pact-json.js'
import { pactFile, writePact } from './write-pact.js'

/** How long a merge waits for another process's; a lock older than this was left by a process that died. */
const LOCK_WAIT_MS = 10_000
const STALE_LOCK_MS = 30_000

function writeWhole(file: string, text: string): void {
  const partial = `${file}.${process.pid}.tmp`
  writeFileSync(partial, text)
  renameSync(partial, file)
}

/** Runs `work` holding a lock folder: mkdir is atomic, so one process merges at a time. */
async function withLock<T>(lock: string, work: () => T): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true })
      else if (Date.now() > deadline) throw new Error(`Failed to write the pact: ${lock} stayed locked for ${LOCK_WAIT_MS / 1000} s.`)
      else await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  try {
    return work()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/**
 * Adds one test's pact to its run's: the test's part is kept in `parts` (a
 * folder of this run only, such as Playwright's output folder, which each run
 * starts empty), and `<dir>/<consumer>-<provider>.json` is rewritten from
 * every part so far, merged. Workers in parallel take turns. Returns the file.
 */
export async function addToRunPact(pact: PactDocument, options: { parts: string; dir?: string }): Promise<string> {
  const file = pactFile({ consumer: pact.consumer.name, provider: pact.provider.name }, options.dir)
  const folder = join(options.parts, `${pact.consumer.name}-${pact.provider.name}`)
  mkdirSync(folder, { recursive: true })
  writeWhole(join(folder, `${randomUUID()}.json`), pactJson(pact))
  await withLock(join(options.parts, `${pact.consumer.name}-${pact.provider.name}.lock`), () => {
    const names = readdirSync(folder).filter((name) => name.endsWith('.json'))
    const merged = mergePacts(names.map((name) => parseExactJsonFile(readFileSync(join(folder, name), 'utf8')) as PactDocument))
    writePact(merged, options.dir === undefined ? {} : { dir: options.dir })
    // The merge stands for the parts it read: the folder stays one part (and those arriving now) however long the run.
    writeWhole(join(folder, `${randomUUID()}.json`), pactJson(merged))
    for (const name of names) rmSync(join(folder, name), { force: true })
  })
  return file
}
