import { closestName } from './argv.js'
import { FLAGS, VERIFY_FLAGS } from './flags.js'
import { escapeControls } from './terminal-text.js'

const PREFIX = 'PETSTORE_SIM_'

/**
 * The package's variables read outside the server's flags: the Playwright
 * fixture's base URL (src/playwright.ts), which a test run's environment
 * hands down to a server it starts, and `record`'s key (cli/record).
 */
const READ_ELSEWHERE = ['PETSTORE_SIM_URL', 'PETSTORE_SIM_RECORD_KEY']

/** Every PETSTORE_SIM_* variable read: each flag's, the server's, verify's and record's, and those read elsewhere. */
export function knownVariables(): string[] {
  const fromFlags = [...FLAGS, ...VERIFY_FLAGS].map((flag) => flag.env).filter((name) => name.startsWith(PREFIX))
  return [...new Set([...fromFlags, ...READ_ELSEWHERE])]
}

/**
 * One line for each PETSTORE_SIM_* variable set that nothing reads (a typo
 * such as PETSTORE_SIM_PORTT, which would leave the port as it was), naming
 * the variable it most likely meant. Names compare ignoring case where the
 * system's variables do (Windows); elsewhere `petstore_sim_port` is a typo too.
 */
export function unknownVariableWarnings(
  env: Readonly<Record<string, string | undefined>>,
  ignoreCase: boolean = process.platform === 'win32',
): string[] {
  const fold = (name: string) => (ignoreCase ? name.toUpperCase() : name)
  const known = knownVariables()
  const knownFolded = new Set(known.map(fold))
  const suffixes = known.map((each) => each.slice(PREFIX.length))
  return Object.keys(env)
    .filter((name) => name.toUpperCase().startsWith(PREFIX) && !knownFolded.has(fold(name)))
    .sort()
    .map((name) => {
      const meant = closestName(name.slice(PREFIX.length).toUpperCase(), suffixes)
      const hint = meant === undefined ? '' : ` (did you mean ${PREFIX}${meant}?)`
      return `Warning: ${escapeControls(name)} is set, but petstore-sim reads no such variable${hint}; it has no effect.`
    })
}
