import { ApiError } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { jsonText } from '../json-text.js'
import { quote } from '../quote-value.js'
import { recordedRouteOf, recordedRouteSnapshot } from '../routes/recorded-snapshot.js'
import { looksLikePath } from '../scenario/load-scenario.js'
import type { CheckedScenario } from '../scenario/parse-scenario.js'
import type { Scenario } from '../scenario/scenario.js'
import { isScenarioError } from '../scenario/scenario-error.js'
import { parseScenarioJson } from '../scenario/scenario-file.js'
import { ValidationError } from '../validation-error.js'
import type { ActiveScenario, InstanceFactory, SimulatorInstance } from './instance.js'
import { fingerprintOf } from './scenario-fingerprint.js'
import type { SessionCharge, Sessions } from './sessions.js'
import {
  parseSnapshot,
  SNAPSHOT_VERSION,
  type SimulatorSnapshot,
  type SnapshotLimits,
  type SnapshotScenario,
  type SnapshotState,
} from './snapshot-schema.js'

/** The version of this package, written in each snapshot for whoever reads it (test/snapshot.test.ts keeps it equal to package.json's). */
export const SIMULATOR_VERSION = '0.1.0'

/** What a simulator's snapshots read and write. */
interface SnapshotContext {
  factory: InstanceFactory
  /** The scenario the simulator started with, and the `scenario` option that gave it. */
  start: { given: string | Scenario | undefined; scenario: CheckedScenario; source: string }
  root(): SimulatorInstance
  sessions: Sessions
  limits: SnapshotLimits
  now(): number
}

/** What moves when anything a snapshot holds of a state changes (never its journal): a sum of counters, read without a copy. */
export function weigh(instance: SimulatorInstance): number {
  return (
    instance.store.version() +
    instance.controls.revision() +
    instance.lifecycle.revision() +
    instance.routes.revision() +
    instance.coverage.revision()
  )
}

/** How one simulator names its scenarios in a snapshot, and loads them back. */
interface Naming {
  factory: InstanceFactory
  /** The start scenario and what names it: its name or path as given, or an object's name (its source). */
  start: { ref: string; scenario: CheckedScenario; source: string; givenAsText: boolean }
  fingerprints: WeakMap<ActiveScenario, string>
}

/**
 * A state's scenario by name when a restore may load it again safely (a built-in, a scenarios-folder
 * file, the simulator's own start), else embedded whole: a snapshot never names another file.
 */
function scenarioOf({ factory, start, fingerprints }: Naming, active: ActiveScenario): SnapshotScenario {
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
 */
function activeOf(naming: Naming, named: SnapshotScenario, where: string, fallback: () => ActiveScenario, warn: (line: string) => void) {
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
    throw new ValidationError('restore', `${where}: its scenario generates orders, and the generator is not loaded yet`)
  const active = factory.activate(resolved.scenario, resolved.source, seed)
  const same = fingerprintOf(active, fingerprints) === named.fingerprint
  if (!same) warn(`${where}: scenario ${quote(active.scenario.name)} changed since the snapshot; the state starts afresh from it`)
  return { active, same }
}

function stateOf(naming: Naming, instance: SimulatorInstance, session: string | null): SnapshotState {
  return {
    session,
    scenario: scenarioOf(naming, instance.active),
    orders: instance.store.ownRecords(),
    clock: instance.lifecycle.snapshot(),
    controls: instance.controls.snapshot(),
    recorded: instance.routes.recordedRoutes().map(recordedRouteSnapshot),
    coverage: instance.coverage.snapshot(),
  }
}

/** Puts a state's own parts back on `instance`, fresh at the initial state of its scenario; coverage always (it outlives resets). */
function apply(instance: SimulatorInstance, state: SnapshotState, same: boolean, where: string): void {
  if (same) {
    instance.store.restoreOwn(state.orders.records, state.orders.nextPosition)
    instance.lifecycle.restore(state.clock, instance.active.initialOrders)
    instance.controls.restore(state.controls)
    state.recorded.forEach((recorded, index) => {
      if (!instance.routes.add(recordedRouteOf(recorded)))
        throw new ValidationError(
          'restore',
          `${where}: recorded[${index}] (${recorded.method} ${quote(recorded.path)}) does not fit: the scenario answers it, or the bounds of recordings are reached`,
        )
    })
  }
  instance.coverage.restore(state.coverage)
}

/** Takes and restores a simulator's snapshots (snapshot-schema.ts has the document). */
export function createSnapshots(context: SnapshotContext) {
  const { factory, sessions } = context
  const { given, ...start } = context.start
  const givenAsText = typeof (given ?? 'default') === 'string'
  const ref = typeof given === 'string' ? given : given === undefined ? 'default' : start.source
  const naming: Naming = { factory, start: { ...start, ref, givenAsText }, fingerprints: new WeakMap() }
  return {
    take(): SimulatorSnapshot {
      const states = [stateOf(naming, context.root(), null)]
      for (const { id, instance, created } of sessions.live())
        states.push({ ...stateOf(naming, instance, id), created: new Date(created).toISOString() })
      return { version: SNAPSHOT_VERSION, savedAt: new Date(context.now()).toISOString(), simulator: SIMULATOR_VERSION, states }
    },
    /**
     * Restores `input` into a simulator just made: the default state, then each session in the order
     * written (least recently used first), each used now. Throws a `ValidationError` (`restore: …`) at the
     * first state that cannot be restored; the caller closes what was made.
     */
    restore(input: unknown, warn: (line: string) => void): void {
      const snapshot = parseSnapshot(input, context.limits)
      const root = context.root()
      const byDefault = snapshot.states.find((state) => state.session === null)
      if (byDefault !== undefined) {
        const where = 'the default state'
        explained(where, () => {
          const { active, same } = activeOf(naming, byDefault.scenario, where, () => root.active, warn)
          if (active !== root.active) void factory.reload(root, active)
          apply(root, byDefault, same, where)
        })
      }
      for (const state of snapshot.states) {
        if (state.session === null) continue
        const where = `session ${quote(state.session)}`
        explained(where, () =>
          sessions.restore(state.session as string, Date.parse(state.created as string), (charge: SessionCharge) => {
            const { active, same } = activeOf(naming, state.scenario, where, () => root.active, warn)
            const instance = factory.create(active, charge)
            try {
              apply(instance, state, same, where)
            } catch (error) {
              instance.lifecycle.stop()
              throw error
            }
            return instance
          }),
        )
      }
    },
  }
}

/** An embedded scenario, read as an object only: a string here would be resolved as a name or a path. */
function embedded(text: string): Scenario {
  const value = parseScenarioJson(text, 'the embedded scenario')
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ValidationError('restore', 'the embedded scenario is not a scenario object')
  return value as Scenario
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 300)

/** Runs one state's restore; whatever it throws becomes one `restore: <where>: <why>` line. */
function explained(where: string, run: () => void): void {
  try {
    run()
  } catch (error) {
    if (error instanceof ValidationError && error.message.startsWith('restore: ')) throw error
    const why =
      error instanceof ApiError && error.code === ErrorCode.TooManySessions
        ? 'the states need more than sessions.maxBytes (--max-session-memory) allows'
        : oneLine(error instanceof Error ? error.message : String(error))
    throw new ValidationError('restore', `restore: ${where}: ${why}`)
  }
}
