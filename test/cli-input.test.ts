import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createSimulator } from '../src/index.js'
import { type SimulatorServerOptions, startSimulatorServer } from '../src/server.js'
import { CLI, useProcesses, whenReady } from './support/cli-process.js'

// Each test starts the built CLI as a process: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

// Bad input the CLI used to take without a word (issue 42, section 8): dates
// `new Date()` reads leniently, sunsets before their deprecation, base paths
// no request reaches, variables nobody reads.

const run = useProcesses()
const cli = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [CLI, ...args], env)
const folder = mkdtempSync(join(tmpdir(), 'petstore-cli-input-'))

beforeAll(() => {
  expect(existsSync(CLI), 'run "npm run build" first (npm test does)').toBe(true)
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

async function refused(args: string[], env: Record<string, string> = {}): Promise<string> {
  const failing = cli(['--port', '0', ...args], env)
  const code = await failing.exited
  const lines = failing.stderr().trimEnd().split('\n')
  expect(lines, failing.stderr() || failing.stdout()).toHaveLength(1)
  expect(failing.stderr()).not.toMatch(/^\s+at /m)
  expect(code).toBe(1)
  return lines[0] ?? ''
}

/** A scenario file whose own deprecation date is `deprecatedAt`. */
function scenarioDeprecatedAt(deprecatedAt: string): string {
  const path = join(folder, `deprecated-${deprecatedAt.slice(0, 4)}.json`)
  writeFileSync(path, JSON.stringify({ name: 'dated', description: 'd', apiKeys: ['k'], orders: [], deprecation: { deprecatedAt } }))
  return path
}

describe('dates from flags and variables are checked as scenario files check them', () => {
  test.each([
    [['--deprecated-at', '1'], {}, /^--deprecated-at must be a valid date: an ISO 8601 date-time .*, got "1"\.$/],
    [['--deprecated-at', '2027-02-30T00:00:00Z'], {}, /^--deprecated-at must be a valid date: .*got "2027-02-30T00:00:00Z"\.$/],
    [['--sunset-at', '2027-01-01'], {}, /^--sunset-at must be a valid date: .*with a real calendar day and a time zone/],
    [['--sunset-at', '2026-12-31T23:59:60Z'], {}, /^--sunset-at must be a valid date: /],
    [['--sunset-at', '9999-12-31T23:00:00-05:00'], {}, /^--sunset-at must be a valid date: .*within the years 0000 to 9999/],
    [[], { PETSTORE_SIM_DEPRECATED_AT: 'tomorrow' }, /^PETSTORE_SIM_DEPRECATED_AT must be a valid date: .*got "tomorrow"\.$/],
    [[], { PETSTORE_SIM_SUNSET_AT: '2027-13-01T00:00:00Z' }, /^PETSTORE_SIM_SUNSET_AT must be a valid date: /],
  ])('%j %j exits 1 naming the flag or variable', async (args, env, pattern) => {
    expect(await refused(args, env)).toMatch(pattern)
  })

  test.each([
    [
      ['--deprecated-at', '2027-06-01T00:00:00Z', '--sunset-at', '2027-01-01T00:00:00+00:00'],
      {},
      /^--sunset-at \(2027-01-01T00:00:00\.000Z\) comes before --deprecated-at \(2027-06-01T00:00:00\.000Z\): /,
    ],
    [
      ['--sunset-at', '2025-01-01T00:00:00Z'],
      {},
      /^--sunset-at \(2025-01-01T00:00:00\.000Z\) comes before the deprecation date --deprecated-at defaults to \(2026-01-01/,
    ],
    [
      ['--deprecated-at', '2028-01-01T00:00:00Z'],
      {},
      /^the sunset date --sunset-at defaults to \(2027-01-01T00:00:00\.000Z\) comes before --deprecated-at \(2028-01-01/,
    ],
    [[], { PETSTORE_SIM_SUNSET_AT: '2020-01-01T00:00:00Z' }, /^PETSTORE_SIM_SUNSET_AT \(2020-01-01T00:00:00\.000Z\) comes before /],
  ])('a sunset before its deprecation, %j %j, exits 1', async (args, env, pattern) => {
    expect(await refused(args, env)).toMatch(pattern)
  })

  test("a lone date is weighed against the scenario's own other date", async () => {
    const late = scenarioDeprecatedAt('2025-06-01T00:00:00Z')
    expect(await refused(['--scenario', late, '--sunset-at', '2025-01-01T00:00:00Z'])).toMatch(
      /^--sunset-at \(2025-01-01T00:00:00\.000Z\) comes before scenario "dated"'s deprecation\.deprecatedAt \(2025-06-01/,
    )
    const early = scenarioDeprecatedAt('2024-01-01T00:00:00Z')
    const server = await whenReady(cli(['--port', '0', '--scenario', early, '--sunset-at', '2025-01-01T00:00:00Z']))
    const pet = await fetch(`${server.url}/pets/1`, { headers: { Authorization: 'Bearer k' } })
    expect([pet.headers.get('Deprecation'), pet.headers.get('Sunset')]).toEqual(['@1704067200', 'Wed, 01 Jan 2025 00:00:00 GMT'])
  })

  test('verify takes the date flags as the server does: exit 2, one line naming the flag', async () => {
    const failing = run(process.execPath, [
      CLI,
      'verify',
      '--target',
      'http://127.0.0.1:9/v1',
      '--key',
      'k3y-for-tests',
      '--deprecated-at',
      '1',
    ])
    expect(await failing.exited).toBe(2)
    expect(failing.stderr()).toMatch(/^--deprecated-at must be a valid date: .*got "1"\.\n$/)
  })
})

describe('base paths no request could reach are refused', () => {
  test.each([
    ['/__sim', /^--base-path must not lie under \/__sim, where the admin API and the health check answer first, got "\/__sim"\.$/],
    ['/__sim/api', /must not lie under \/__sim/],
    ['/__SIM', /must not lie under \/__sim/],
    ['/v1/../x', /^--base-path must not hold "\." or "\.\." segments: .*got "\/v1\/\.\.\/x"\.$/],
    ['/./v1', /must not hold "\." or "\.\." segments/],
    ['/v1/..', /must not hold "\." or "\.\." segments/],
    ['/v%31', /^--base-path must hold only letters, digits and .*no %-escapes/],
    ['/café', /must hold only letters, digits/],
    ['/v 1', /must hold only letters, digits/],
    ['/v1\\x', /must hold only letters, digits/],
    ['/a//b', /^--base-path must not hold an empty segment/],
    ['v1', /^--base-path must be a path starting with "\/", such as \/v1, got "v1"\.$/],
  ])('--base-path %j exits 1 with one line', async (basePath, pattern) => {
    expect(await refused(['--base-path', basePath])).toMatch(pattern)
  })

  test('PETSTORE_SIM_BASE_PATH is refused alike, naming the variable', async () => {
    expect(await refused([], { PETSTORE_SIM_BASE_PATH: '/__sim/v1' })).toMatch(/^PETSTORE_SIM_BASE_PATH must not lie under \/__sim/)
  })

  test('a plain base path, trailing slash and all, is served', async () => {
    const server = await whenReady(cli(['--port', '0', '--base-path', '/api/v1.2/'], { PETSTORE_SIM_QUIET: '1' }))
    expect(server.url).toMatch(/\/api\/v1\.2$/)
    expect((await fetch(`${server.url}/store/orders`, { headers: { Authorization: 'Bearer petstore-test-key' } })).status).toBe(200)
  })
})

describe('in process, the core refuses the same options', () => {
  /** What starting a server with these options ends in; one that starts is closed at once. */
  async function start(options: SimulatorServerOptions): Promise<string> {
    try {
      const running = await startSimulatorServer({ port: 0, host: '127.0.0.1', ...options })
      await running.close()
      return 'started'
    } catch (error) {
      return String(error)
    }
  }

  test.each([
    [{ basePath: '/__sim' }, /^TypeError: Failed to create the simulator: the base path must not lie under \/__sim/],
    [{ basePath: '/v1/../x' }, /the base path must not hold "\." or "\.\." segments/],
    [{ basePath: '/v%31' }, /the base path must hold only letters, digits/],
    [{ deprecation: { deprecatedAt: '1' } }, /deprecation\.deprecatedAt must be a valid date: /],
    [{ deprecation: { sunsetAt: new Date(Date.UTC(10000, 0, 1)) } }, /deprecation\.sunsetAt must be a valid date: /],
    [
      { deprecation: { deprecatedAt: '2027-06-01T00:00:00Z', sunsetAt: '2027-01-01T00:00:00Z' } },
      /deprecation\.sunsetAt \(2027-01-01T00:00:00\.000Z\) comes before deprecation\.deprecatedAt \(2027-06-01/,
    ],
  ])('startSimulatorServer(%j) fails to start', async (options, pattern) => {
    expect(await start(options)).toMatch(pattern)
  })

  test('createSimulator refuses a path baseUrl no request reaches; a pinned origin is read as requests are', () => {
    expect(() => createSimulator({ baseUrl: '/__sim/v1' })).toThrow(/the base path must not lie under \/__sim/)
    expect(createSimulator({ baseUrl: 'https://api.example.test/v1/../v2' }).state().options.baseUrl).toBe(
      'https://api.example.test/v1/../v2',
    )
  })

  test("a scenario's leap-second deprecation date, which no Date holds, is refused as the flag is", () => {
    const scenario = { name: 'leap', description: 'd', apiKeys: ['k'], orders: [], deprecation: { deprecatedAt: '2026-12-31T23:59:60Z' } }
    expect(() => createSimulator({ scenario })).toThrow('deprecation.deprecatedAt must be an ISO 8601 date-time')
  })
})

describe('a PETSTORE_SIM_* variable nothing reads', () => {
  test('is named in one warning line on stderr, with the variable it most likely meant; the server starts', async () => {
    const server = await whenReady(
      cli(['--port', '0'], { PETSTORE_SIM_PORTT: '4011', PETSTORE_SIM_QUIET: '1', PETSTORE_SIM_URL: 'http://x.test/v1' }),
    )
    await expect
      .poll(() => server.stderr())
      .toBe(
        'Warning: PETSTORE_SIM_PORTT is set, but petstore-sim reads no such variable (did you mean PETSTORE_SIM_PORT?); it has no effect.\n',
      )
  })

  test('verify warns of it too, and still reports', async () => {
    const running = await startSimulatorServer({ port: 0, host: '127.0.0.1', admin: false })
    try {
      const child = run(process.execPath, [CLI, 'verify', '--target', running.url, '--key', 'petstore-test-key', '--rate', '100'], {
        PETSTORE_SIM_EXPOSE_STATSU: '1',
      })
      expect(await child.exited).toBe(0)
      expect(child.stderr()).toBe(
        'Warning: PETSTORE_SIM_EXPOSE_STATSU is set, but petstore-sim reads no such variable (did you mean PETSTORE_SIM_EXPOSE_STATUS?); it has no effect.\n',
      )
      expect(child.stdout()).toMatch(/^\d+ checks: \d+ match, 0 differ/m)
    } finally {
      await running.close()
    }
  })
})

test('--help says what a base path, a date and an unknown variable must be', async () => {
  const help = cli(['--help'])
  expect(await help.exited).toBe(0)
  const text = help.stdout()
  expect(text).toMatch(/--base-path <path> .*no \. or \.\., no %-escapes\), not under \/__sim/)
  expect(text).toMatch(/--deprecated-at <date> .*an ISO 8601 date-time with a time zone such as 2026-01-01T00:00:00Z/)
  expect(text).toMatch(/--sunset-at <date> .*not before the Deprecation date/)
  expect(text).toContain('a PETSTORE_SIM_* variable')
})

describe('--max-session-memory', () => {
  test('bounds what the sessions hold in all: past it a new session gets 503 too_many_sessions', async () => {
    const server = await whenReady(cli(['--port', '0', '--max-session-memory', '1', '--scenario', 'pending']))
    const list = (session: string) =>
      fetch(`${server.url}/store/orders`, { headers: { Authorization: 'Bearer petstore-test-key', 'X-Sim-Session': session } })
    expect((await list('first')).status).toBe(200)
    const refused = await list('second')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('Retry-After')).toMatch(/^[1-9][0-9]*$/)
    expect(await refused.json()).toMatchObject({ code: 'too_many_sessions', status: 503 })
  })

  test.each(['0', '-1', '1.5', 'lots'])('refuses %s in one line naming the flag', async (value) => {
    expect(await refused(['--max-session-memory', value])).toMatch(/^--max-session-memory must be/)
  })
})

describe('a refused --proxy URL', () => {
  test.each([
    [['--proxy', 'http://user:pw@127.0.0.1:9/v1'], {}, '127.0.0.1:9/v1'],
    [['--proxy', 'http://127.0.0.1:9/v1?key=sekrit'], {}, '127.0.0.1:9/v1'],
    [[], { PETSTORE_SIM_PROXY: 'https://ann:pw@staging.example.test/v1?api_key=sekrit' }, 'staging.example.test/v1'],
  ])('%j %j is one line, exit 1, naming it without its password or query', async (args, env, shown) => {
    const line = await refused(args, env)
    expect(line).toMatch(/^(--proxy|PETSTORE_SIM_PROXY) must be /)
    expect(line).toContain(shown)
    expect(line).not.toMatch(/pw|sekrit|ann/)
  })
})
