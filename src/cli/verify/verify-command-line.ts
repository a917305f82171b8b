import { isBearerToken } from '../../core/bearer-auth.js'
import { readFlags } from '../argv.js'
import { createFlagReader, readOptions } from '../cli-options.js'
import { VERIFY_FLAGS } from '../flags.js'
import { parseServicePace, parseTarget, usageOf } from '../service-flags.js'
import type { VerifySimulatorOptions } from './calibration.js'
import type { VerifyPlan } from './run-verify.js'

/** What `verify` runs (the plan but its User-Agent), and how it reports. */
export type VerifyCommand = Omit<VerifyPlan, 'userAgent'> & { kind: 'verify'; json: boolean; writeOptions: string | undefined }

const usage = usageOf('verify')

/** An order or pet id as the service's list writes it: decimal, no leading zeros, so ids compare exactly. */
function parseId(text: string | undefined, flag: string): string | undefined {
  if (text === undefined) return undefined
  if (!/^-?\d{1,19}$/.test(text)) throw usage(`${flag} must be a decimal integer id, got "${text}".`)
  return BigInt(text).toString()
}

/** Reads `petstore-sim verify ...` (the arguments after `verify`). Throws a `CliUsageError` of one line. */
export function parseVerifyCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): VerifyCommand | { kind: 'help' } {
  const { values } = readFlags(argv, VERIFY_FLAGS, usage)
  if (values['help'] === true) return { kind: 'help' }
  const reader = createFlagReader(values, VERIFY_FLAGS, env)
  const target = parseTarget(reader.read('target'), 'verify')
  const key = reader.read('key')
  if (key === undefined || key === '')
    throw usage('verify needs --key <token> (or PETSTORE_SIM_VERIFY_KEY), a bearer key the service accepts.')
  if (!isBearerToken(key))
    throw usage(`${reader.label('key')} must be an RFC 6750 bearer token: letters, digits and -._~+/, then optional "=" (not shown here).`)
  // The server's flags verify takes set only the options VerifySimulatorOptions has.
  const simulator: VerifySimulatorOptions = readOptions(reader, VERIFY_FLAGS)
  const writeOptions = reader.read('write-options')
  if (writeOptions === '') throw usage('--write-options needs a file name.')
  return {
    kind: 'verify',
    target,
    key,
    ...parseServicePace(reader.read, 'verify'),
    json: reader.readBoolean('json') ?? false,
    writeOptions,
    simulator,
    pet: parseId(reader.read('pet'), '--pet'),
    shippedOrder: parseId(reader.read('shipped-order'), '--shipped-order'),
    pendingOrder: parseId(reader.read('pending-order'), '--pending-order'),
  }
}
