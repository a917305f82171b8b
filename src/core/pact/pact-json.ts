import { stringify } from 'lossless-json'
import type { PactDocument } from './pact-document.js'

/**
 * The text of a pact file: indented by two, a final newline, int64 ids beyond
 * 2^53 with every digit. The same pact always gives the same bytes.
 */
export function pactJson(pact: PactDocument): string {
  return `${stringify(pact, null, 2) ?? 'null'}\n`
}
