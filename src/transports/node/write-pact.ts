import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { PactDocument } from '../../core/pact/pact-document.js'
import { pactJson } from '../../core/pact/pact-json.js'
import { checkPactNames } from '../../core/pact/pact-names.js'
import { mapValidation } from '../../core/validation-error.js'

/** The file a pact between these two is written to, in `dir`: `<consumer>-<provider>.json`, as Pact names it. */
export function pactFile(names: { consumer: string; provider: string }, dir = 'pacts'): string {
  const { consumer, provider } = mapValidation(
    () => checkPactNames(names),
    (error) => {
      throw new TypeError(`Failed to write the pact: ${error.message}`)
    },
  )
  return resolve(join(dir, `${consumer}-${provider}.json`))
}

/**
 * Writes a pact to `pacts/<consumer>-<provider>.json` (under the working
 * directory, or `options.dir`), replacing the file whole: a reader never sees
 * half of it. Returns the file's path.
 * @example
 * afterAll(() => writePact(sim.pact({ consumer: 'orders-web' })))
 */
export function writePact(pact: PactDocument, options: { dir?: string } = {}): string {
  const file = pactFile({ consumer: pact.consumer.name, provider: pact.provider.name }, options.dir)
  mkdirSync(resolve(file, '..'), { recursive: true })
  const partial = `${file}.${process.pid}.tmp`
  writeFileSync(partial, pactJson(pact))
  renameSync(partial, file)
  return file
}
