import { stringify } from 'lossless-json'
import { escapeControls } from '../terminal-text.js'
import type { Calibration } from './check.js'
import type { Facts } from './facts.js'
import type { CheckResult, VerifyOutcome } from './run-verify.js'

/** A value as JavaScript source, strings in single quotes, as the options are written in code. */
function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : literal(key)}: ${literal(item)}`)
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`
  }
  return String(value)
}

/** How much of one value the service sent (a pet record, an Error code) a report quotes. */
const QUOTE_CHARACTERS = 4096

/** A value as a report quotes it: its first 4096 characters, then how many more were left out. */
function bounded(text: string): string {
  if (text.length <= QUOTE_CHARACTERS) return text
  // Never half a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(QUOTE_CHARACTERS - 1)) ? QUOTE_CHARACTERS - 1 : QUOTE_CHARACTERS
  return `${text.slice(0, end)}… (${text.length - end} more characters left out)`
}

/** `exposeStatus: true, afterCancel: 'remove'`: the switches as options read in code, each value bounded (a pet record may be huge). */
function describeCalibration(calibration: Calibration): string {
  return Object.entries(calibration)
    .map(([name, value]) => `${name}: ${bounded(literal(value))}`)
    .join(', ')
}

const describeFacts = (facts: Facts) => facts.map(([name, value]) => `${name}: ${bounded(value)}`).join(', ')

/** Facts as the JSON report holds them, each value bounded as the text report's. */
const factsObject = (facts: Facts) => Object.fromEntries(facts.map(([name, value]) => [name, bounded(value)]))

/** One line per check: outcome, id, what was probed, and what each side answered. */
function lineOf(result: CheckResult): string {
  const head = `${result.outcome.padEnd(8)} ${result.id.padEnd(24)} ${result.title}`
  if (result.outcome === 'skipped') return `${head}: ${result.reason}`
  if (result.outcome === 'match') return `${head}: ${describeFacts(result.service)} (both)`
  const option = result.switch === null ? 'no switch' : `switch ${describeCalibration(result.switch)}`
  return `${head}: service ${describeFacts(result.service)}; simulator ${describeFacts(result.simulator)}; ${option}`
}

export interface ReportContext {
  target: string
  /** The scenario in force, as given (`default` when none was). */
  scenario: string
  /** The file `--write-options` wrote, if any. */
  wrote: string | undefined
}

function summaryOf(results: readonly CheckResult[]) {
  const count = (outcome: CheckResult['outcome']) => results.filter((result) => result.outcome === outcome).length
  const noSwitch = noSwitchIds(results).length
  return {
    checks: results.length,
    match: count('match'),
    differs: count('differs'),
    skipped: count('skipped'),
    withSwitch: count('differs') - noSwitch,
    noSwitch,
  }
}

function noSwitchIds(results: readonly CheckResult[]): string[] {
  return results.flatMap((result) => (result.outcome === 'differs' && result.switch === null ? [result.id] : []))
}

/** The report for people: a header, one line per check, a summary, and what calibration wrote. */
export function textReport(outcome: VerifyOutcome, context: ReportContext): string {
  const summary = summaryOf(outcome.results)
  const lines = [
    `Verifying ${context.target} against the simulator (scenario: ${context.scenario})`,
    ...outcome.results.map(lineOf),
    `${summary.checks} checks: ${summary.match} match, ${summary.differs} differ (${summary.withSwitch} with a switch, ${summary.noSwitch} no switch), ${summary.skipped} skipped.`,
  ]
  if (context.wrote !== undefined) {
    const switches = describeCalibration(outcome.calibration)
    lines.push(
      `Wrote ${context.wrote}: scenario "${outcome.scenario.name}"${switches === '' ? ', no switch needed' : ` with ${switches}`}.`,
    )
  }
  const uncovered = noSwitchIds(outcome.results)
  if (uncovered.length > 0) lines.push(`No switch covers: ${uncovered.join(', ')}.`)
  // What the service sent is shown, never obeyed: an escape sequence in a code or a record cannot clear the screen or hide a line.
  return lines.map(escapeControls).join('\n')
}

/** The same as a document (docs/verify-report.schema.json). */
export function jsonReport(outcome: VerifyOutcome, context: ReportContext): string {
  const checks = outcome.results.map((result) =>
    result.outcome === 'skipped'
      ? result
      : {
          id: result.id,
          title: result.title,
          outcome: result.outcome,
          service: factsObject(result.service),
          simulator: factsObject(result.simulator),
          differing: result.differing,
          switch: result.switch,
          option: result.outcome === 'match' ? null : result.switch === null ? 'no switch' : describeCalibration(result.switch),
        },
  )
  const document = {
    target: context.target,
    scenario: context.scenario,
    summary: summaryOf(outcome.results),
    checks,
    calibration: outcome.calibration,
    noSwitch: noSwitchIds(outcome.results),
    wroteOptions: context.wrote ?? null,
  }
  // lossless-json: a pet record may hold int64 values beyond 2^53.
  return stringify(document, null, 2) ?? 'null'
}
