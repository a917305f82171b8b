import { parseExactJson } from '../../core/exact-json.js'
import type { Observed } from './probe-client.js'

/** What a check observed of one answer, by name, in the order they are shown: `status`, `code`, a header... */
export type Facts = ReadonlyArray<readonly [name: string, value: string]>

/** How much of an unexpected body a report shows. */
const SNIPPET_BYTES = 200

/** The first 200 bytes of a body, quoted, so HTML or binary shows as one line. */
export function snippet(body: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(body.subarray(0, SNIPPET_BYTES))
  return `${JSON.stringify(text)}${body.length > SNIPPET_BYTES ? ` (first ${SNIPPET_BYTES} of ${body.length} bytes)` : ''}`
}

/** A body as JSON (int64 digits kept), or undefined when it is none. */
export function jsonOf(body: Uint8Array): { value: unknown } | undefined {
  try {
    return { value: parseExactJson(new TextDecoder('utf-8', { fatal: true }).decode(body)) }
  } catch {
    return undefined
  }
}

/** The `code` of a spec Error body ({ code, message, status } with status equal to the HTTP status), or why it is not one. */
function errorCode(status: number, body: Uint8Array): string {
  const json = jsonOf(body)
  if (json === undefined) return `no Error body: ${body.length === 0 ? 'empty' : snippet(body)}`
  const record =
    typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value) ? (json.value as Record<string, unknown>) : {}
  const { code, message, status: statusField } = record
  if (typeof code !== 'string' || typeof message !== 'string' || typeof statusField !== 'number')
    return `no Error body (needs code, message and status): ${snippet(body)}`
  return statusField === status ? code : `${code} (but its status field says ${statusField})`
}

/**
 * The facts of an answer every check compares: its status, the Error code of
 * an error, and the named headers (`WWW-Authenticate` by its scheme, `Allow`
 * as a sorted set). An answer that never came is its reason.
 */
export function answerFacts(observed: Observed, headers: readonly string[] = []): [string, string][] {
  if (observed.kind === 'failure') return [['status', `no answer: ${observed.reason}`]]
  const facts: [string, string][] = [['status', String(observed.status)]]
  if (observed.status >= 400) facts.push(['code', errorCode(observed.status, observed.body)])
  for (const name of headers) {
    const value = observed.headers.get(name)
    if (value === null) facts.push([name, '(none)'])
    // `Bearer realm="x"` is `Bearer`.
    else if (name === 'WWW-Authenticate') facts.push([name, value.trim().split(/[\s,]/)[0] ?? ''])
    else if (name === 'Allow') {
      const methods = value.split(',').map((method) => method.trim().toUpperCase())
      facts.push([name, methods.sort().join(', ')])
    } else facts.push([name, value])
  }
  return facts
}

/** The names whose values differ between two sets of facts (a name one side lacks counts as "(none)"). */
export function differingFacts(service: Facts, simulator: Facts): string[] {
  const names = [...new Set([...service.map(([name]) => name), ...simulator.map(([name]) => name)])]
  return names.filter((name) => (factOf(service, name) ?? '(none)') !== (factOf(simulator, name) ?? '(none)'))
}

/** The value of one fact, or undefined. */
export function factOf(facts: Facts, name: string): string | undefined {
  return facts.find(([own]) => own === name)?.[1]
}
