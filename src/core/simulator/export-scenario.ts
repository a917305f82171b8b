import { faultInputOf } from '../controls/faults.js'
import type { LatencyInput, LatencyRanges, LatencySettings } from '../controls/latency.js'
import type { LifecycleRule } from '../lifecycle/lifecycle-rule.js'
import { DEFAULT_DEPRECATION } from '../operations/get-pet-by-id.js'
import { shownRoute } from '../routes/route-book.js'
import { SCENARIO_NAME } from '../scenario/scenario-limits.js'
import type { Scenario } from '../scenario/scenario.js'
import { toOrder } from '../state/order-store.js'
import { ValidationError } from '../validation-error.js'
import { quote } from '../quote-value.js'
import type { SimulatorInstance } from './instance.js'
import type { ExportOptions } from './scenario-export.js'

/** Checks a scenario name given to a save or an export: it becomes a file name, so nothing else passes. */
export function checkScenarioName(name: unknown): string {
  if (typeof name !== 'string' || !SCENARIO_NAME.test(name)) {
    throw new ValidationError(
      'name',
      `A scenario name is 1 to 64 lower-case letters, digits and dashes, starting with a letter or digit (such as qa-big), got ${quote(name)}.`,
    )
  }
  return name
}

function latencyValue({ min, max }: { min: number; max: number }): LatencyInput {
  return min === max ? min : `${min}-${max}`
}

function latencyOf(ranges: LatencyRanges): LatencyInput | LatencySettings {
  const entries = Object.entries(ranges) as [keyof LatencyRanges, { min: number; max: number }][]
  const only = ranges.default
  if (entries.length === 1 && only !== undefined) return latencyValue(only)
  return Object.fromEntries(entries.map(([operation, range]) => [operation, latencyValue(range)]))
}

const duration = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`)

function lifecycleOf({ min, max }: LifecycleRule): NonNullable<Scenario['lifecycle']> {
  return min === max ? { shipAfter: duration(min) } : { min: duration(min), max: duration(max) }
}

/**
 * The state of one simulator or session as a scenario that loads back to it:
 * its orders as they are now (statuses included, in list order), its keys,
 * pets and switches, and its latency, faults (what is left of them), rate
 * limit and lifecycle. Generated orders are written out, not their
 * generator. Pure: it works in a browser as in Node.
 */
export function exportScenario(instance: SimulatorInstance, options: ExportOptions = {}): Scenario {
  const { scenario, settings } = instance.active
  const { controls, store } = instance
  const name = options.name === undefined ? scenario.name : checkScenarioName(options.name)
  if (options.description !== undefined && typeof options.description !== 'string')
    throw new ValidationError('description', `A description is a string, got ${quote(options.description)}.`)
  const exported: Scenario = {
    name,
    description: options.description ?? scenario.description,
    apiKeys: [...scenario.apiKeys],
    orders: store.all().map(toOrder),
    exposeStatus: settings.exposeStatus,
    afterCancel: settings.afterCancel,
  }
  if (scenario.pets !== undefined) exported.pets = scenario.pets
  // The scenario's routes and those recorded since: a saved state answers offline as this one does.
  const routes = instance.routes.list()
  // A recorded body, held as bytes, is read as its value here: the same value, every digit kept.
  if (routes.length > 0) exported.routes = routes.map(shownRoute)
  const latency = controls.latency()
  if (latency !== null) exported.latency = latencyOf(latency)
  const faults = controls.faults()
  if (faults.length > 0) exported.faults = faults.map(faultInputOf)
  const rateLimit = controls.rateLimit()
  if (rateLimit !== null) exported.rateLimit = { ...rateLimit }
  if (settings.lifecycle !== null) exported.lifecycle = lifecycleOf(settings.lifecycle)
  const deprecation: NonNullable<Scenario['deprecation']> = {}
  for (const date of ['deprecatedAt', 'sunsetAt'] as const) {
    const iso = settings.deprecation[date].toISOString()
    if (new Date(DEFAULT_DEPRECATION[date]).getTime() !== settings.deprecation[date].getTime()) deprecation[date] = iso
  }
  if (Object.keys(deprecation).length > 0) exported.deprecation = deprecation
  return exported
}
