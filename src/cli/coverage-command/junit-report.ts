// `petstore-sim coverage --format junit`: the merged coverage as JUnit XML, the format nearly every CI reads: a
// <testcase> per documented outcome, <failure> for a required one never seen, <skipped/> for the others never seen.
import { escapeControls } from '../terminal-text.js'
import { neverSeenMessage, REPORT_TOOL, type ReportInput, verdictOf } from './outcome-verdicts.js'

/** What XML 1.0 cannot hold even as a reference: lone surrogates, U+FFFE and U+FFFF (controls are escaped before). */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/**
 * Text from a coverage file (a test's name) as XML text or an attribute's value: controls shown as their escapes
 * (`\x1b`), as a terminal would get them, what XML cannot hold likewise, and the five markup characters as entities.
 */
function xmlText(text: string): string {
  return escapeControls(text)
    .replace(NOT_XML, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`)
    .replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char)
}

/** `name="value"` pairs, each value escaped. */
const attributes = (pairs: Readonly<Record<string, string | number>>) =>
  Object.entries(pairs)
    .map(([name, value]) => ` ${name}="${xmlText(String(value))}"`)
    .join('')

/** The report as the file's text: one <testsuite> in a <testsuites>, a <testcase> per outcome. */
export function junitText(input: ReportInput): string {
  const cases: string[] = []
  const counts = { failures: 0, skipped: 0 }
  for (const outcome of input.coverage.outcomes) {
    const verdict = verdictOf(outcome, input.required)
    const head = `    <testcase${attributes({ name: outcome.id, classname: REPORT_TOOL, time: 0 })}`
    const seenBy = input.testNames.get(outcome.id) ?? []
    const body: string[] = []
    if (verdict === 'failed') {
      counts.failures++
      body.push(`      <failure${attributes({ message: neverSeenMessage(outcome, verdict), type: 'RequiredOutcomeNeverSeen' })}/>`)
    } else if (verdict === 'skipped') {
      counts.skipped++
      body.push(`      <skipped${attributes({ message: neverSeenMessage(outcome, verdict) })}/>`)
    } else {
      // Who saw it, one name a line, where the coverage files name their tests.
      const lines = [`Seen ${outcome.count} time${outcome.count === 1 ? '' : 's'}.`, ...seenBy.map((name) => `Seen by: ${name}`)]
      body.push(`      <system-out>${lines.map(xmlText).join('\n')}</system-out>`)
    }
    cases.push(`${head}>`, ...body, '    </testcase>')
  }
  const totals = {
    tests: input.coverage.outcomes.length,
    failures: counts.failures,
    errors: 0,
    skipped: counts.skipped,
    time: (input.stop - input.start) / 1000,
  }
  const gate = input.shortfalls.length === 0 ? [] : [`    <system-err>${input.shortfalls.map(xmlText).join('\n')}</system-err>`]
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: REPORT_TOOL, ...totals })}>`,
    `  <testsuite${attributes({ name: REPORT_TOOL, ...totals, timestamp: new Date(input.start).toISOString() })}>`,
    '    <properties>',
    `      <property${attributes({ name: 'exercised', value: input.coverage.exercised })}/>`,
    `      <property${attributes({ name: 'total', value: input.coverage.total })}/>`,
    `      <property${attributes({ name: 'coverageFiles', value: input.files })}/>`,
    `      <property${attributes({ name: 'version', value: input.version })}/>`,
    '    </properties>',
    ...cases,
    ...gate,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
