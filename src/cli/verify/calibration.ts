import type { SimulatorOptions } from '../../core/simulator/types.js'
import { resolveScenario } from '../../core/scenario/load-scenario.js'
import { loadScenarioFile } from '../../core/scenario/scenario-file.js'
import type { Scenario } from '../../core/scenario/scenario.js'
import type { Calibration } from './check.js'

/** The simulator options `verify` takes, as the server takes them. */
export type VerifySimulatorOptions = Pick<SimulatorOptions, 'seed' | 'exposeStatus' | 'afterCancel' | 'deprecation'> & { scenario?: string }

const SUFFIX = '-calibrated'

/** Two calibrations as one, or a scenario calibrated; the second wins field by field (deprecation date by date). */
export function mergeCalibrations<T extends Calibration>(first: T, second: Calibration): T {
  const merged: T = { ...first, ...second }
  if (first.deprecation !== undefined || second.deprecation !== undefined)
    merged.deprecation = { ...first.deprecation, ...second.deprecation }
  if (first.pets !== undefined || second.pets !== undefined) merged.pets = { ...first.pets, ...second.pets }
  return merged
}

const isoDate = (value: Date | string): string => new Date(value).toISOString()

/**
 * The scenario the simulator of a comparison loads: the scenario in force,
 * with the command line's options folded into its fields (so the scenario
 * alone reproduces them), then the calibration's switches. `--write-options`
 * writes exactly this, so a later `--scenario <file>` (or `createSimulator({
 * scenario })`) serves what the comparison served.
 */
export function calibratedScenario(options: VerifySimulatorOptions, calibration: Calibration): Scenario {
  const { scenario: inForce } = resolveScenario(options.scenario ?? 'default', loadScenarioFile)
  const scenario: Scenario = { ...inForce }
  scenario.name = inForce.name.endsWith(SUFFIX) ? inForce.name : `${inForce.name.slice(0, 64 - SUFFIX.length)}${SUFFIX}`
  if (options.seed !== undefined && scenario.generate !== undefined) scenario.generate = { ...scenario.generate, seed: options.seed }
  if (options.exposeStatus !== undefined) scenario.exposeStatus = options.exposeStatus
  if (options.afterCancel !== undefined) scenario.afterCancel = options.afterCancel
  const { deprecatedAt, sunsetAt } = options.deprecation ?? {}
  if (deprecatedAt !== undefined || sunsetAt !== undefined)
    scenario.deprecation = {
      ...scenario.deprecation,
      ...(deprecatedAt === undefined ? {} : { deprecatedAt: isoDate(deprecatedAt) }),
      ...(sunsetAt === undefined ? {} : { sunsetAt: isoDate(sunsetAt) }),
    }
  return mergeCalibrations(scenario, calibration)
}
