import { DEFAULT_RATE, DEFAULT_TIMEOUT_SECONDS } from './flags.js'
import { CliUsageError } from './usage-error.js'

// What the commands that call a running service (verify, record) read alike: its base URL, and how
// fast and how long they may ask it.

/** A usage error of `command`, pointing at its help. */
export const usageOf = (command: string) => (problem: string) =>
  new CliUsageError(`${problem} Run petstore-sim ${command} --help for the options.`)

/**
 * A URL a message echoes: without its user info or query (a password or a key may be in either),
 * `http://***@host/v1`. Text that is no URL loses everything from a "?" on and up to its last "@".
 */
function shownUrl(text: string): string {
  if (!URL.canParse(text)) return text.replace(/[?#].*$/s, '').replace(/^([a-z][a-z\d+.-]*:\/*)?.*@/is, '$1***@')
  const url = new URL(text)
  const user = url.username !== '' || url.password !== '' ? '***@' : ''
  // No host (mailto:, foo:user:pw@host): the path is all there is, and may hold user info as well.
  return url.host === '' ? `${url.protocol}${url.pathname.replace(/^.*@/s, '***@')}` : `${url.protocol}//${user}${url.host}${url.pathname}`
}

/** The target as a base URL; never echoes a URL that carries credentials. */
export function parseTarget(text: string | undefined, command: string): string {
  const usage = usageOf(command)
  if (text === undefined || text === '')
    throw usage(`${command} needs --target <url>, the base URL of the running service, such as https://api.example.test/v1.`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    // Shown without user info or a query: a password or key may be in either, even in text that is no URL.
    throw usage(`--target must be an http or https URL, such as https://api.example.test/v1, got "${shownUrl(text)}".`)
  }
  // The key goes in --key only: a URL with credentials ends up in shell history, logs and this tool's output.
  if (url.username !== '' || url.password !== '')
    throw usage('--target must not carry credentials (user:password@); give the key with --key.')
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usage(`--target must be an http or https URL, got a ${url.protocol} one.`)
  if (url.search !== '' || url.hash !== '') throw usage('--target takes the base URL only, without a query or a fragment.')
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/** `--rate` and `--timeout` (in ms) of `command`, each its default when not given. */
export function parseServicePace(read: (name: string) => string | undefined, command: string): { rate: number; timeoutMs: number } {
  const number = (flag: string, fallback: number, min: number, max: number): number => {
    const text = read(flag)
    if (text === undefined) return fallback
    const value = Number(text)
    if (!/^\d+(\.\d+)?$/.test(text) || value < min || value > max)
      throw usageOf(command)(`--${flag} must be a number from ${min} to ${max}, got "${text}".`)
    return value
  }
  return { rate: number('rate', DEFAULT_RATE, 0.1, 100), timeoutMs: number('timeout', DEFAULT_TIMEOUT_SECONDS, 0.1, 600) * 1000 }
}
