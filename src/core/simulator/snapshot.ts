// sim.snapshot(): every state as plain JSON data, only what each changed and its scenario's name.
import { recordedRouteSnapshot } from '../routes/recorded-snapshot.js'
import type { CheckedScenario } from '../scenario/parse-scenario.js'
import type { Scenario } from '../scenario/scenario.js'
import type { InstanceFactory, SimulatorInstance } from './instance.js'
import { fingerprintOf } from './scenario-fingerprint.js'
import type { Sessions } from './sessions.js'
import { type Naming, scenarioOf } from './snapshot-naming.js'
import { restoreSnapshot } from './snapshot-restore.js'
import { SNAPSHOT_VERSION, type SimulatorSnapshot, type SnapshotLimits, type SnapshotState } from './snapshot-schema.js'
import { type StartedWith, type StartOptions, startedWithOf } from './started-with.js'

/** The version of this package, written in each snapshot for whoever reads it (test/snapshot.test.ts keeps it equal to package.json's). */
export const SIMULATOR_VERSION = '0.1.0'

/** What a simulator's snapshots read and write. */
interface SnapshotContext {
  factory: InstanceFactory
  /** The scenario the simulator started with, and the `scenario` option that gave it. */
  start: { given: string | Scenario | undefined; scenario: CheckedScenario; source: string }
  /** The other options the default state is made from, as checked. */
  startOptions: Omit<StartOptions, 'scenario'>
  root(): SimulatorInstance
  sessions: Sessions
  limits: SnapshotLimits
  now(): number
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

/** Takes and restores a simulator's snapshots (snapshot-schema.ts has the document, snapshot-restore.ts the restore). */
export function createSnapshots(context: SnapshotContext) {
  const { factory, sessions } = context
  const { given, ...start } = context.start
  const givenAsText = typeof (given ?? 'default') === 'string'
  const ref = typeof given === 'string' ? given : given === undefined ? 'default' : start.source
  const naming: Naming = { factory, start: { ...start, ref, givenAsText }, fingerprints: new WeakMap() }
  // Made now, while the default state holds it: an object's fingerprint is read once, at the first need.
  const startActive = context.root().active
  let startedWith: string | undefined
  // A copy each time: a caller may change the snapshot it was given.
  const ownStart = (): StartedWith => {
    startedWith ??= JSON.stringify(
      startedWithOf({
        ...context.startOptions,
        scenario:
          typeof given === 'object' ? { name: start.source, fingerprint: () => fingerprintOf(startActive, naming.fingerprints) } : ref,
      }),
    )
    return JSON.parse(startedWith) as StartedWith
  }
  return {
    take(): SimulatorSnapshot {
      const states = [stateOf(naming, context.root(), null)]
      for (const { id, instance, created } of sessions.live())
        states.push({ ...stateOf(naming, instance, id), created: new Date(created).toISOString() })
      const savedAt = new Date(context.now()).toISOString()
      return { version: SNAPSHOT_VERSION, savedAt, simulator: SIMULATOR_VERSION, startedWith: ownStart(), states }
    },
    /** Restores `input` into a simulator just made (snapshot-restore.ts); throws only when it is no snapshot at all. */
    restore(input: unknown, warn: (line: string) => void): void {
      restoreSnapshot({ factory, naming, root: context.root, sessions, limits: context.limits, startedWith: ownStart }, input, warn)
    },
  }
}
