// How the server's flags read their text into options (flags.ts names each flag's reader). A reader
// throws a CliUsageError, or a core ValidationError (cli-options.ts names the flag for it), whose
// message names `label`: the flag, or the variable that gave the value.
import { statSync } from 'node:fs'
import { isBearerToken } from '../core/bearer-auth.js'
import { MAX_LATENCY_MS } from '../core/controls/latency.js'
import type { DeprecationDates } from '../core/glossary.js'
import { type LifecycleInput, parseLifecycle } from '../core/lifecycle/lifecycle-rule.js'
import { checkDeprecationDate, checkOptions } from '../core/simulator/options.js'
import type { SimulatorOptions } from '../core/simulator/types.js'
import { systemErrorCode } from '../core/system-error-code.js'
import { mapValidation, ValidationError } from '../core/validation-error.js'
import { hostOf } from '../transports/node/host-check.js'
import { CliUsageError } from './usage-error.js'

type Read<T> = (text: string, label: string) => T

/** A whole number from 0 to `max`. */
export const whole =
  (max = Number.MAX_SAFE_INTEGER): Read<number> =>
  (text, label) => {
    if (!/^[0-9]+$/.test(text) || Number(text) > max)
      throw new CliUsageError(`${label} must be a whole number from 0 to ${max}, got "${text}".`)
    return Number(text)
  }

/** A number of seconds for the core's proxy option to bound; text that is no number is refused as typed (the core would see NaN). */
export const seconds: Read<number> = (text, label) => {
  const value = Number(text.trim() === '' ? Number.NaN : text)
  if (Number.isNaN(value)) throw new CliUsageError(`${label} must be above 0 and at most 600, got "${text}".`)
  return value
}

/** A size in MiB, from 1 (a session's own bound is about 0.6 MiB) to 64 GiB, in bytes. */
export const mebibytes: Read<number> = (text, label) => {
  if (whole(65_536)(text, label) === 0) throw new CliUsageError(`${label} must be at least 1 (MiB), got "${text}".`)
  return Number(text) * 1024 * 1024
}

/** A folder that exists, as the scenarios folder must when the server starts; empty is none (`-e PETSTORE_SIM_SCENARIOS_DIR=`). */
export const folder: Read<string | undefined> = (path, label) => {
  if (path === '') return undefined
  let stats: ReturnType<typeof statSync>
  try {
    stats = statSync(path)
  } catch (error) {
    const why = systemErrorCode(error) === 'ENOENT' ? 'does not exist' : `cannot be read (${systemErrorCode(error) ?? String(error)})`
    throw new CliUsageError(`${label} ${path} ${why}. Give a folder of scenario files (it may be empty), or leave ${label} out.`)
  }
  if (!stats?.isDirectory()) throw new CliUsageError(`${label} ${path} is a file, not a folder. Give the folder that holds scenario files.`)
  return path
}

/** Whether the core's option checks take `text` as the option `key`: the CLI says how a value is refused, never which. */
function coreTakes(key: keyof SimulatorOptions, text: string): boolean {
  try {
    checkOptions({ [key]: text } as SimulatorOptions)
    return true
  } catch (error) {
    if (error instanceof ValidationError) return false
    throw error
  }
}

/**
 * The text as the option `key`, once the core's option checks take it; one they refuse is `line`,
 * worded for the command line (the core's own message lists the option's in-process forms, objects included).
 */
export const takenByCore =
  (key: keyof SimulatorOptions, line: (label: string, text: string) => string): Read<string> =>
  (text, label) => {
    if (!coreTakes(key, text)) throw new CliUsageError(line(label, text))
    return text
  }

/** Why the core refused a --latency: a range it takes the other way round, else not milliseconds it takes. */
export function latencyLine(label: string, latency: string): string {
  const bounds = latency.split('-')
  if (bounds.length === 2 && coreTakes('latency', [...bounds].reverse().join('-')))
    return `${label} takes the lower bound first, such as ${bounds.map(Number).reverse().join('-')}, got "${latency}".`
  return `${label} must be milliseconds such as 50 or 50-400 (at most ${MAX_LATENCY_MS}), got "${latency}".`
}

/** --ship-after: `30s`, or a range `10s-60s`, as the core's lifecycle option. */
export const shipAfter: Read<LifecycleInput> = (text, label) => {
  const [min = '', max] = text.split('-')
  const lifecycle = max === undefined ? { shipAfter: text } : { min, max }
  mapValidation(
    () => parseLifecycle(lifecycle),
    (error) => {
      const problem =
        error.field === 'lifecycle'
          ? `takes the shorter duration first, such as ${max}-${min}`
          : 'must be a duration from 0 to 24h such as 30s, 250ms or 10m, or a range such as 10s-60s'
      throw new CliUsageError(`${label} ${problem}, got "${text}".`)
    },
  )
  return lifecycle
}

/** A deprecation date, checked as the core checks the option (and a scenario file its dates). */
export const date =
  (field: keyof DeprecationDates): Read<string> =>
  (text, label) => {
    checkDeprecationDate(text, `deprecation.${field}`, label)
    return text
  }

export const hostName: Read<string> = (host, label) => {
  if (host.trim() === '') throw new CliUsageError(`${label} must not be empty.`)
  return host
}

export const adminToken: Read<string> = (token, label) => {
  if (!isBearerToken(token))
    throw new CliUsageError(`${label} must be one word of letters, digits and -._~+/ characters (it is sent as a bearer token).`)
  return token
}

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')

export const allowedHosts: Read<string[] | 'all'> = (text, label) => {
  const names = list(text)
  if (names.length === 0) throw new CliUsageError(`${label} must name hosts, such as qa.example.test,.corp.test, or be all.`)
  const bad = names.find((name) => name !== 'all' && hostOf(name.replace(/^\./, '')) === null)
  if (bad !== undefined) throw new CliUsageError(`${label} takes host names or addresses, got "${bad}".`)
  return names.includes('all') ? 'all' : names
}

export const adminOrigins: Read<string[]> = (text, label) => {
  const origins = list(text)
  const bad = origins.find((origin) => !/^https?:\/\/[^/?#\s]+$/.test(origin))
  if (origins.length === 0 || bad !== undefined)
    throw new CliUsageError(`${label} takes origins such as https://qa.example.test (scheme, host, port; no path), got "${bad ?? text}".`)
  return origins
}
