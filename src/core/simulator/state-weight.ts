import type { SimulatorInstance } from './instance.js'

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
