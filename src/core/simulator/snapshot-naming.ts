// How a snapshot names each state's scenario, and how a restore loads it back (snapshot.ts, snapshot-restore.ts).
import { jsonText } from '../json-text.js'
import { quote } from '../quote-value.js'
import { looksLikePath } from '../scenario/load-scenario.js'
import type { CheckedScenario } from '../scenario/parse-scenario.js'
import type { Scenario } from '../scenario/scenario.js'
import { isScenarioError } from '../scenario/scenario-error.js'
import { parseScenarioJson } from '../scenario/scenario-file.js'
import { ValidationError } from '../validation-error.js'
import type { ActiveScenario, InstanceFactory } from './instance.js'
import { fingerprintOf } from './scenario-fingerprint.js'
import type { SnapshotScenario } from './snapshot-schema.js'

/** How one simulator names its scenarios in a snapshot, and loads them back. */
export interface Naming {
  factory: InstanceFactory
  /** The start scenario and what names it: its name or path as given, or an object's name (its source). */
  start: { ref: string; scenario: CheckedScenario; source: string; givenAsText: boolean }
  fingerprints: WeakMap<ActiveScenario, string>
}

/**
 * A state's scenario by name when a restore may load it again safely (a built-in, a scenarios-folder
 * file, the simulator's own start), else embedded whole: a snapshot never names another file.
 */
export function scenarioOf({ factory, start, fingerprints }: Naming, active: ActiveScenario): SnapshotScenario {
  const seed = active.seed ?? null
  const fingerprint = fingerprintOf(active, fingerprints)
  if (active.scenario === start.scenario) return { ref: start.ref, seed, fingerprint }
  const ref = factory.refOf(active.scenario)
  // A name the start (an object) also bears would read back as the start: embedded instead.
  const clashes = ref === start.ref && !start.givenAsText
  if (ref !== undefined && !clashes && (!looksLikePath(ref) || ref === start.ref)) return { ref, seed, fingerprint }
  return { inline: jsonText(active.scenario), seed, fingerprint }
}

/** What a scenario a snapshot names is now: the start's, an embedded one's, or a name's. Never a path other than the start's. */
function resolvedOf({ factory, start }: Naming, named: SnapshotScenario): { scenario: CheckedScenario; source: string } {
  if ('inline' in named) return factory.resolve(embedded(named.inline))
  if (named.ref === start.ref) return start
  if (looksLikePath(named.ref))
    throw new ValidationError(
      'restore',
      `scenario ${quote(named.ref)} is a file this simulator was not started with; a snapshot names only built-in and scenarios-folder scenarios, or the start one`,
    )
  return factory.resolve(named.ref)
}

/**
 * The scenario a state names, loaded at its seed, and whether it still is what the snapshot stood on;
 * a name that no longer loads (a folder's file gone) gives `fallback`, the simulator's current one.
 * Throws an Error saying why the state cannot be restored at all.
 */
export function activeOf(
  naming: Naming,
  named: SnapshotScenario,
  where: string,
  fallback: () => ActiveScenario,
  warn: (line: string) => void,
) {
  const { factory, fingerprints } = naming
  let resolved: { scenario: CheckedScenario; source: string }
  try {
    resolved = resolvedOf(naming, named)
  } catch (error) {
    if (!isScenarioError(error) || 'inline' in named) throw error
    warn(`${where}: scenario ${quote(named.ref)} no longer loads (${oneLine(error.message)}); it starts from the simulator's scenario`)
    return { active: fallback(), same: false }
  }
  const seed = named.seed ?? undefined
  if (factory.ready(resolved.scenario, seed) !== undefined)
    throw new ValidationError('restore', 'its scenario generates orders, and the generator is not loaded yet')
  const active = factory.activate(resolved.scenario, resolved.source, seed)
  const same = fingerprintOf(active, fingerprints) === named.fingerprint
  if (!same) warn(`${where}: scenario ${quote(active.scenario.name)} changed since the snapshot; the state starts afresh from it`)
  return { active, same }
}

/** An embedded scenario, read as an object only: a string here would be resolved as a name or a path. */
function embedded(text: string): Scenario {
  const value = parseScenarioJson(text, 'the embedded scenario')
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ValidationError('restore', 'the embedded scenario is not a scenario object')
  return value as Scenario
}

/** A message on one line of at most 300 characters, with no control character. */
export const oneLine = (text: string) =>
  text
    .replace(/[\p{Cc}\u2028\u2029\s]+/gu, ' ')
    .trim()
    .slice(0, 300)
