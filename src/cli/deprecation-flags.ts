import type { DeprecationDates } from '../core/glossary.js'
import { DEFAULT_DEPRECATION } from '../core/operations/get-pet-by-id.js'
import { resolveScenario } from '../core/scenario/load-scenario.js'
import { loadScenarioFile } from '../core/scenario/scenario-file.js'
import { checkDeprecationDate, checkDeprecationOrder } from '../core/simulator/options.js'
import { mapValidation } from '../core/validation-error.js'
import { type FlagReader, usageError } from './usage-error.js'

const DATE_FLAGS: Record<keyof DeprecationDates, string> = { deprecatedAt: 'deprecated-at', sunsetAt: 'sunset-at' }

/**
 * --deprecated-at and --sunset-at, each checked as the core checks the
 * option (and a scenario file its dates), then against each other; with one
 * given, against the other date in force: the scenario's own, else the
 * default. A folder's scenario is read only when the server starts.
 */
export function readDeprecation(
  { read, label }: FlagReader,
  scenario: string | undefined,
  inFolder: boolean,
): Partial<Record<keyof DeprecationDates, string>> | undefined {
  const given: Partial<Record<keyof DeprecationDates, string>> = {}
  const names: Record<keyof DeprecationDates, string> = { deprecatedAt: '', sunsetAt: '' }
  const dates: Partial<DeprecationDates> = {}
  for (const field of ['deprecatedAt', 'sunsetAt'] as const) {
    const flag = DATE_FLAGS[field]
    const value = read(flag)
    names[field] = label(flag)
    if (value === undefined) continue
    dates[field] = mapValidation(() => checkDeprecationDate(value, `deprecation.${field}`, label(flag)), usageError)
    given[field] = value
  }
  const missing = (['deprecatedAt', 'sunsetAt'] as const).filter((field) => given[field] === undefined)
  if (missing.length === 2) return undefined
  const other = missing[0]
  if (other !== undefined) {
    if (inFolder) return given
    const { scenario: loaded } = resolveScenario(scenario ?? 'default', loadScenarioFile)
    const own = loaded.deprecation?.[other]
    dates[other] = new Date(own ?? DEFAULT_DEPRECATION[other])
    names[other] =
      own === undefined
        ? `the ${other === 'deprecatedAt' ? 'deprecation' : 'sunset'} date --${DATE_FLAGS[other]} defaults to`
        : `scenario "${loaded.name}"'s deprecation.${other}`
  }
  const { deprecatedAt, sunsetAt } = dates
  if (deprecatedAt !== undefined && sunsetAt !== undefined)
    mapValidation(() => checkDeprecationOrder({ deprecatedAt, sunsetAt }, names), usageError)
  return given
}
