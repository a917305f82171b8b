import { describe, expect, test } from 'vitest'
import { type CliCommand, parseCommandLine } from './cli-options.js'
import { CliUsageError } from './usage-error.js'

/** What the command line reads as, or the usage line it is refused with. */
function outcome(argv: string[], env: Record<string, string> = {}): CliCommand | string {
  try {
    return parseCommandLine(argv, env, () => undefined)
  } catch (error) {
    if (error instanceof CliUsageError) return error.message
    throw error
  }
}

const started = (options: object) => ({ kind: 'start', options, quiet: false })

// The core's option checks decide; the CLI words their refusal for the flag or variable that gave the value.
describe('values the core checks, refused in one line naming the flag or its variable', () => {
  test.each([
    [['--latency', '50-400'], {}, started({ latency: '50-400' })],
    [['--latency', '60001'], {}, '--latency must be milliseconds such as 50 or 50-400 (at most 60000), got "60001".'],
    [[], { PETSTORE_SIM_LATENCY: 'fast' }, 'PETSTORE_SIM_LATENCY must be milliseconds such as 50 or 50-400 (at most 60000), got "fast".'],
    [['--latency', '400-50'], {}, '--latency takes the lower bound first, such as 50-400, got "400-50".'],
    [['--latency', '0400-050'], {}, '--latency takes the lower bound first, such as 50-400, got "0400-050".'],
    [[], { PETSTORE_SIM_LATENCY: '400-50' }, 'PETSTORE_SIM_LATENCY takes the lower bound first, such as 50-400, got "400-50".'],
    [['--latency', '1-2-3'], {}, '--latency must be milliseconds such as 50 or 50-400 (at most 60000), got "1-2-3".'],
    [['--rate-limit', '100/60s'], {}, started({ rateLimit: '100/60s' })],
    [['--rate-limit', '0/60s'], {}, '--rate-limit must be <requests>/<window>, both above 0, such as 100/60s, got "0/60s".'],
    [
      [],
      { PETSTORE_SIM_RATE_LIMIT: '1/0m' },
      'PETSTORE_SIM_RATE_LIMIT must be <requests>/<window>, both above 0, such as 100/60s, got "1/0m".',
    ],
    [['--proxy', 'http://127.0.0.1:9/v1', '--proxy-timeout', 'abc'], {}, '--proxy-timeout must be above 0 and at most 600, got "abc".'],
    [
      [],
      { PETSTORE_SIM_PROXY: 'http://127.0.0.1:9/v1', PETSTORE_SIM_PROXY_TIMEOUT: '601' },
      'PETSTORE_SIM_PROXY_TIMEOUT must be above 0 and at most 600, got "601".',
    ],
    [['--after-cancel', 'remove'], {}, started({ afterCancel: 'remove' })],
    [['--after-cancel', 'drop'], {}, '--after-cancel must be keep or remove, got "drop".'],
    [[], { PETSTORE_SIM_AFTER_CANCEL: 'Keep' }, 'PETSTORE_SIM_AFTER_CANCEL must be keep or remove, got "Keep".'],
    [['--base-path', '/api/v1'], {}, started({ basePath: '/api/v1' })],
    [['--base-path', 'v1'], {}, '--base-path must be a path starting with "/", such as /v1, got "v1".'],
    [
      [],
      { PETSTORE_SIM_BASE_PATH: '/__sim/v1' },
      'PETSTORE_SIM_BASE_PATH must not lie under /__sim, where the admin API and the health check answer first, got "/__sim/v1".',
    ],
  ])('%j %j', (argv, env, expected) => {
    expect(outcome(argv, env)).toEqual(expected)
  })

  test('dates: each as the core checks a date, then against the other date in force', () => {
    expect(outcome(['--deprecated-at', '1'])).toMatch(/^--deprecated-at must be a valid date: an ISO 8601 date-time .*, got "1"\.$/)
    expect(outcome([], { PETSTORE_SIM_SUNSET_AT: '2027-01-01' })).toMatch(/^PETSTORE_SIM_SUNSET_AT must be a valid date: /)
    expect(outcome(['--deprecated-at', '2027-06-01T00:00:00Z', '--sunset-at', '2027-01-01T00:00:00Z'])).toMatch(
      /^--sunset-at \(2027-01-01T00:00:00\.000Z\) comes before --deprecated-at \(2027-06-01T00:00:00\.000Z\): /,
    )
  })

  test('verify reads --after-cancel the same way', async () => {
    const { parseVerifyCommandLine } = await import('./verify/verify-command-line.js')
    const argv = ['--target', 'https://api.example.test/v1', '--key', 'k', '--after-cancel', 'drop']
    expect(() => parseVerifyCommandLine(argv, {})).toThrow(/^--after-cancel must be keep or remove, got "drop"\.$/)
  })
})

describe('--proxy and the flags that shape it', () => {
  test.each([
    [['--proxy', 'https://staging.example.test/v1'], {}, started({ proxy: { target: 'https://staging.example.test/v1' } })],
    [
      ['--proxy', 'http://127.0.0.1:9/v1', '--proxy-timeout', '2.5', '--record'],
      { PETSTORE_SIM_PROXY_KEY: 'real-key' },
      // No scenario named: the CLI reads the deployment's orders at start.
      {
        ...started({ proxy: { target: 'http://127.0.0.1:9/v1', key: 'real-key', timeoutSeconds: 2.5, record: true } }),
        readAtStart: { pets: false },
      },
    ],
    [
      ['--proxy', 'http://127.0.0.1:9/v1', '--record', '--pets'],
      {},
      { ...started({ proxy: { target: 'http://127.0.0.1:9/v1', record: true } }), readAtStart: { pets: true } },
    ],
    // A scenario named, by flag or variable, is kept: nothing is read at start.
    [
      ['--proxy', 'http://127.0.0.1:9/v1', '--record', '--scenario', 'shipped'],
      {},
      started({ scenario: 'shipped', proxy: { target: 'http://127.0.0.1:9/v1', record: true } }),
    ],
    [
      ['--proxy', 'http://127.0.0.1:9/v1', '--record'],
      { PETSTORE_SIM_SCENARIO: 'pending' },
      started({ scenario: 'pending', proxy: { target: 'http://127.0.0.1:9/v1', record: true } }),
    ],
    [['--proxy', 'ftp://x/v1'], {}, expect.stringMatching(/^--proxy must be the http\(s\) URL .*, got "ftp:\/\/x\/v1"\.$/)],
    [[], { PETSTORE_SIM_PROXY: 'staging' }, expect.stringMatching(/^PETSTORE_SIM_PROXY must be the http\(s\) URL/)],
    [['--proxy', 'http://x/v1', '--proxy-timeout', '0'], {}, expect.stringMatching(/^--proxy-timeout must be above 0 and at most 600/)],
    [['--proxy-key', 'real-key'], {}, '--proxy-key works only with --proxy <url> (or PETSTORE_SIM_PROXY).'],
    [['--record'], {}, '--record works only with --proxy <url> (or PETSTORE_SIM_PROXY).'],
    [['--pets'], {}, "--pets works only with --proxy <url> --record: it reads the deployment's pet records at start."],
    [
      ['--proxy', 'http://127.0.0.1:9/v1', '--pets'],
      {},
      "--pets works only with --proxy <url> --record: it reads the deployment's pet records at start.",
    ],
    [
      ['--proxy', 'http://127.0.0.1:9/v1', '--record'],
      { PETSTORE_SIM_PETS: 'yes', PETSTORE_SIM_SCENARIO: 'pending' },
      "PETSTORE_SIM_PETS has no effect with PETSTORE_SIM_SCENARIO: the deployment's orders and pets are read at start only when no scenario is named. Drop one.",
    ],
    [
      ['--proxy', 'http://127.0.0.1:9/v1', '--record', '--seed', '7'],
      {},
      "--seed 7 has no effect: --proxy --record starts from the deployment's orders, which no seed generates. Drop the seed, or name a scenario with --scenario.",
    ],
    [[], { PETSTORE_SIM_PETS: 'maybe' }, 'PETSTORE_SIM_PETS must be 1/true/yes or 0/false/no, got "maybe".'],
  ])('%j with %j', (argv, env, expected) => {
    expect(outcome(argv, env)).toEqual(expected)
  })

  test('a bad key is refused without being echoed', () => {
    const refused = outcome(['--proxy', 'http://x/v1', '--proxy-key', 'not a token secret'])
    expect(refused).toBe('--proxy-key must be a bearer token.')
  })
})
