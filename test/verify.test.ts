import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, onTestFinished, test, vi } from 'vitest'
import { createSimulator } from '../src/index.js'
import { createProbeClient } from '../src/cli/verify/probe-client.js'
import { startSimulatorServer } from '../src/server.js'
import { type DifferingProvider, startDifferingProvider } from './fixtures/differing-provider.mjs'
import { createAjv } from './support/ajv.js'
import { CLI, freePort, useProcesses } from './support/cli-process.js'

// Each test runs petstore-sim verify, a process, against a server: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

const run = useProcesses()

/** A temporary folder, removed once the test is over. */
function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
  return folder
}
/** A key no output may show: distinctive, so a search for it finds nothing by chance. */
const SECRET = 'verify-secret-Zq81xK7mPw'

async function verify(args: string[], env: Record<string, string> = {}) {
  const child = run(process.execPath, [CLI, 'verify', ...args], env)
  const code = await child.exited
  return { code, stdout: child.stdout(), stderr: child.stderr() }
}

/** The check lines of a text report, by check id: `[outcome, line]`. */
function linesById(stdout: string): Map<string, { outcome: string; line: string }> {
  const found = new Map<string, { outcome: string; line: string }>()
  for (const line of stdout.split('\n')) {
    const match = /^(match|differs|skipped)\s+(\S+)\s/.exec(line)
    if (match) found.set(match[2] ?? '', { outcome: match[1] ?? '', line })
  }
  return found
}

const providers: DifferingProvider[] = []
async function provider(behaviour?: 'differing' | 'html' | 'hang' | 'reset'): Promise<DifferingProvider> {
  const started = await startDifferingProvider({ key: SECRET, ...(behaviour === undefined ? {} : { behaviour }) })
  providers.push(started)
  return started
}
afterEach(async () => {
  await Promise.all(providers.splice(0).map((started) => started.close()))
})

beforeAll(() => {
  expect(existsSync(CLI), 'run "npm run build" first (npm test does)').toBe(true)
})

function expectNoSecretAnywhere(result: { stdout: string; stderr: string }): void {
  expect(result.stdout).not.toContain(SECRET)
  expect(result.stderr).not.toContain(SECRET)
}

describe('against the simulator itself', () => {
  // At the default rate, 5 requests a second: some 40 requests take 8 s.
  test('every check matches and it exits 0 at the default rate, the destructive checks given included', { timeout: 30_000 }, async () => {
    const running = await startSimulatorServer({ port: 0, host: '127.0.0.1', admin: false })
    try {
      // README: in the default scenario order 1 is pending and order 5 shipped; pet 2 is declared.
      const result = await verify(['--target', running.url, '--key', 'petstore-test-key', '--pet', '2', '--shipped-order', '5'])
      const lines = linesById(result.stdout)
      expect(result.stderr).toBe('')
      expect([...lines.values()].filter(({ outcome }) => outcome !== 'match')).toEqual([
        expect.objectContaining({ outcome: 'skipped', line: expect.stringContaining('order.pending') }),
      ])
      expect(lines.size).toBeGreaterThanOrEqual(25)
      expect(result.code).toBe(0)
      // The one destructive check it was not given never touched an order.
      expect(running.sim.state().orders).toEqual(createSimulator().state().orders)
    } finally {
      await running.close()
    }
  })

  test('--pending-order cancels exactly that order on the target, and still all match', async () => {
    const running = await startSimulatorServer({ port: 0, host: '127.0.0.1', admin: false, scenario: 'pending' })
    try {
      const result = await verify(['--target', running.url, '--key', 'petstore-test-key', '--pending-order', '2', '--rate', '50'])
      expect(result.code, result.stdout).toBe(0)
      expect(linesById(result.stdout).get('order.pending')?.outcome).toBe('match')
      expect(running.sim.orders().map((order) => [order.id, order.status])).toEqual([
        [1, 'pending'],
        [2, 'cancelled'],
        [3, 'pending'],
      ])
    } finally {
      await running.close()
    }
  })

  test('--json prints the same as a document valid against docs/verify-report.schema.json', async () => {
    const running = await startSimulatorServer({ port: 0, host: '127.0.0.1', admin: false })
    try {
      const result = await verify(['--target', running.url, '--key', 'petstore-test-key', '--json', '--rate', '50', '--pet', '1'])
      const report = JSON.parse(result.stdout) as { summary: { differs: number; match: number }; checks: { outcome: string }[] }
      const validate = createAjv({ strict: true }).compile(JSON.parse(readFileSync('docs/verify-report.schema.json', 'utf8')))
      expect(validate(report), JSON.stringify(validate.errors)).toBe(true)
      expect(report.summary.differs).toBe(0)
      expect(report.summary.match).toBe(report.checks.filter((check) => check.outcome === 'match').length)
      expect(result.code).toBe(0)
    } finally {
      await running.close()
    }
  })
})

test("takes the server's options, and calibrates them away where the service differs: a second run all matches", async () => {
  const running = await startSimulatorServer({
    port: 0,
    host: '127.0.0.1',
    admin: false,
    scenario: 'pending',
    deprecation: { deprecatedAt: '2025-06-30T12:00:00Z' },
  })
  try {
    const file = join(temporaryFolder('verify-'), 'calibrated.json')
    const common = ['--target', running.url, '--key', 'petstore-test-key', '--pet', '1', '--rate', '100']
    const first = await verify([
      ...common,
      '--scenario',
      'pending',
      '--after-cancel',
      'remove',
      '--pending-order',
      '1',
      '--write-options',
      file,
    ])
    const lines = linesById(first.stdout)
    expect(lines.get('order.pending')?.line).toMatch(/switch afterCancel: 'keep'$/)
    expect(lines.get('pet.deprecation')?.line).toMatch(
      /service Deprecation: @1751284800; .*switch deprecation: \{ deprecatedAt: '2025-06-30T12:00:00.000Z' \}$/,
    )
    expect(first.code).toBe(1)
    const second = await verify([...common, '--scenario', file, '--pending-order', '2'])
    expect(second.code, second.stdout).toBe(0)
  } finally {
    await running.close()
  }
})

describe('against a provider that differs on documented silences', () => {
  const FLAGS = ['--key', SECRET, '--pet', '7', '--shipped-order', '3', '--rate', '100']
  const NO_SWITCH = [
    'auth.no-key',
    'auth.unknown-key',
    'auth.malformed',
    'auth.other-scheme',
    'auth.extra-word',
    'auth.before-id',
    'id.letters',
    'id.decimal',
    'id.overflow',
    'id.bad-escape',
    'pet.deprecation',
  ]

  test('reports each difference with the switch that closes it, or "no switch"; --write-options then leaves only the uncovered ones', async () => {
    const { url } = await provider()
    const file = join(temporaryFolder('verify-'), 'calibrated.json')
    const first = await verify(['--target', url, ...FLAGS, '--pending-order', '1', '--write-options', file])
    const lines = linesById(first.stdout)
    expect(first.code, first.stderr).toBe(1)
    expect(lines.get('list.status-field')?.line).toMatch(/service status field: on every order; .*switch exposeStatus: true$/)
    expect(lines.get('order.pending')?.line).toMatch(/in the list afterwards: no.*switch afterCancel: 'remove'$/)
    expect(lines.get('pet.sunset')?.line).toMatch(/switch deprecation: \{ sunsetAt: '2028-01-01T00:00:00.000Z' \}$/)
    expect(lines.get('pet.record')?.line).toMatch(/switch pets: \{ '7': \{ id: 7, name: 'Rex', category: 'dog' \} \}$/)
    for (const id of NO_SWITCH) expect(lines.get(id)?.line, id).toMatch(/^differs .*; no switch$/)
    expect(lines.get('auth.no-key')?.line).toContain('service status: 401, code: unauthorized, WWW-Authenticate: (none)')
    expect(lines.get('id.letters')?.line).toContain('service status: 422, code: invalid_id; simulator status: 400, code: invalid_order_id')
    const differing = [...lines].filter(([, { outcome }]) => outcome === 'differs').map(([id]) => id)
    expect(differing.sort()).toEqual([...NO_SWITCH, 'list.status-field', 'order.pending', 'pet.sunset', 'pet.record'].sort())
    expect(first.stdout).toContain(`Wrote ${file}: scenario "default-calibrated" with exposeStatus: true`)

    // The file is a scenario: createSimulator takes it as an object, as --scenario takes its path.
    const scenario = JSON.parse(readFileSync(file, 'utf8')) as { afterCancel: string; exposeStatus: boolean }
    expect(scenario).toMatchObject({ exposeStatus: true, afterCancel: 'remove', deprecation: { sunsetAt: '2028-01-01T00:00:00.000Z' } })
    expect(createSimulator({ scenario: JSON.parse(readFileSync(file, 'utf8')) }).state().options).toMatchObject({
      exposeStatus: true,
      afterCancel: 'remove',
    })

    // Order 1 is gone now; order 2 is the next pending one.
    const second = await verify(['--target', url, ...FLAGS, '--pending-order', '2', '--scenario', file])
    const after = [...linesById(second.stdout)].filter(([, { outcome }]) => outcome === 'differs')
    expect(after.map(([id]) => id).sort()).toEqual([...NO_SWITCH].sort())
    expect(second.stdout).toContain(`No switch covers: ${NO_SWITCH.join(', ')}.`)
    expect(second.code).toBe(1)
    expectNoSecretAnywhere(first)
    expectNoSecretAnywhere(second)
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET)
  })

  test('--json reports the differences, their switches and what no switch covers, valid against the schema', async () => {
    const { url } = await provider()
    const result = await verify(['--target', url, ...FLAGS, '--pending-order', '4', '--json'])
    const report = JSON.parse(result.stdout) as {
      checks: { id: string; option: string | null; switch: unknown }[]
      calibration: unknown
      noSwitch: string[]
    }
    const validate = createAjv({ strict: true }).compile(JSON.parse(readFileSync('docs/verify-report.schema.json', 'utf8')))
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true)
    expect(report.noSwitch).toEqual(NO_SWITCH)
    expect(report.checks.find((check) => check.id === 'order.pending')).toMatchObject({
      option: "afterCancel: 'remove'",
      switch: { afterCancel: 'remove' },
    })
    expect(report.calibration).toMatchObject({
      exposeStatus: true,
      afterCancel: 'remove',
      deprecation: { sunsetAt: '2028-01-01T00:00:00.000Z' },
    })
    expect(result.code).toBe(1)
    expectNoSecretAnywhere(result)
  })

  test('--rate spaces the requests the target receives', async () => {
    const started = await provider()
    await verify(['--target', started.url, '--key', SECRET, '--rate', '20'])
    const { requests } = started
    const at = (index: number) => requests[index]?.at ?? 0
    expect(requests.length).toBeGreaterThan(10)
    // 20 a second is one start every 50 ms. An arrival may lag its start by a connection set-up,
    // so single gaps jitter; but no five requests ever come within 4 spacings (less that jitter),
    // and over the run they never come faster than 20 a second.
    for (let index = 4; index < requests.length; index++) expect(at(index) - at(index - 4)).toBeGreaterThanOrEqual(4 * 50 - 40)
    expect(at(requests.length - 1) - at(0)).toBeGreaterThanOrEqual((requests.length - 1) * 50 - 50)
  })
})

describe('a target that misbehaves', () => {
  test.each([
    ['answers HTML', 'html' as const, /service status: 200.*simulator status: 401/],
    ['resets every connection', 'reset' as const, /service status: no answer: the connection was reset or closed without an answer/],
    ['never answers', 'hang' as const, /service status: no answer: no answer within 0.5 s \(timed out\)/],
  ])('one that %s differs, showing what came back, without a stack', async (_name, behaviour, pattern) => {
    const { url } = await provider(behaviour)
    const result = await verify(['--target', url, '--key', SECRET, '--rate', '100', '--timeout', '0.5'])
    expect(result.code).toBe(1)
    expect(linesById(result.stdout).get('auth.no-key')?.line).toMatch(pattern)
    expect(result.stderr).toBe('')
    expect(result.stdout).not.toMatch(/^\s+at /m)
    expectNoSecretAnywhere(result)
    // Three requests in a row without an answer: the rest are not probed, rather than each waiting out its timeout.
    if (behaviour !== 'html') expect(linesById(result.stdout).get('method.head')?.line).toMatch(/^skipped .*stopped: the service left/)
  })

  test('an HTML page shows as its first 200 bytes where an Error body was due', async () => {
    const { url } = await provider('html')
    const result = await verify(['--target', url, '--key', SECRET, '--rate', '100'])
    // No list was read, so no id is known to be free: the id checks do not run.
    expect(linesById(result.stdout).get('id.letters')?.outcome).toBe('skipped')
    expect(linesById(result.stdout).get('list.shape')?.line).toContain('body: not JSON: "<!doctype html><html><head><title>Login</title>')
  })

  test('a target that refuses connections exits 2 with one line', async () => {
    const port = await freePort()
    const result = await verify(['--target', `http://127.0.0.1:${port}/v1`, '--key', SECRET])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(new RegExp(`^Failed to reach http://127.0.0.1:${port}/v1: .*ECONNREFUSED.*\\.\\n$`))
  })
})

describe('bad input exits 2 with one line', () => {
  test.each([
    ['no --target', ['--key', SECRET], /^verify needs --target <url>/],
    ['a target that is no URL', ['--target', 'not a url', '--key', SECRET], /^--target must be an http or https URL/],
    ['an ftp target', ['--target', 'ftp://example.test/v1', '--key', SECRET], /^--target must be an http or https URL, got a ftp: one/],
    ['credentials in the target', ['--target', `https://user:${SECRET}@example.test/v1`, '--key', SECRET], /must not carry credentials/],
    // No URL, yet a password in it: shown without it.
    [
      'credentials in a target that is no URL',
      ['--target', `http//user:${SECRET}@example.test/v1`, '--key', SECRET],
      /^--target must be an http or https URL/,
    ],
    ['no key', ['--target', 'http://127.0.0.1:9/v1'], /^verify needs --key <token>/],
    ['a key outside RFC 6750', ['--target', 'http://127.0.0.1:9/v1', '--key', `${SECRET} x`], /^--key must be an RFC 6750 bearer token/],
    ['a rate of 0', ['--target', 'http://127.0.0.1:9/v1', '--key', SECRET, '--rate', '0'], /^--rate must be a number from 0.1 to 100/],
    ['an unknown flag', ['--target', 'http://127.0.0.1:9/v1', '--key', SECRET, '--pett', '1'], /Did you mean --pet\?/],
    [
      'an unknown scenario',
      ['--target', 'http://127.0.0.1:9/v1', '--key', SECRET, '--scenario', 'nope'],
      /^Failed to load scenario "nope"/,
    ],
  ])('%s', async (_name, args, pattern) => {
    const result = await verify(args)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    const lines = result.stderr.trimEnd().split('\n')
    expect(lines, result.stderr).toHaveLength(1)
    expect(lines[0]).toMatch(pattern)
    expectNoSecretAnywhere(result)
  })

  test('the key may come from PETSTORE_SIM_VERIFY_KEY, and is checked the same way', async () => {
    const result = await verify(['--target', 'http://127.0.0.1:9/v1'], { PETSTORE_SIM_VERIFY_KEY: 'has space' })
    expect(result.stderr).toMatch(/^PETSTORE_SIM_VERIFY_KEY must be an RFC 6750 bearer token/)
    expect(result.code).toBe(2)
  })

  test('verify --help lists every flag of verify and exits 0', async () => {
    const result = await verify(['--help'])
    expect(result.code).toBe(0)
    for (const flag of ['--target', '--key', '--scenario', '--after-cancel', '--expose-status', '--deprecated-at', '--pet', '--rate'])
      expect(result.stdout).toContain(flag)
  })
})

test('a redirect to another origin is not followed: the key stays with the target', async () => {
  const elsewhere = await provider()
  const received: string[] = []
  const redirecting = createServer((socket) => {
    socket.once('data', (chunk) => {
      received.push(chunk.toString())
      socket.end(
        `HTTP/1.1 307 Temporary Redirect\r\nLocation: ${elsewhere.url}/store/orders\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      )
    })
  })
  await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve))
  try {
    const address = redirecting.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    const result = await verify(['--target', `http://127.0.0.1:${port}/v1`, '--key', SECRET, '--rate', '100'])
    expect(linesById(result.stdout).get('list.shape')?.line).toContain('service status: 307')
    expect(elsewhere.requests).toEqual([])
    expect(received.length).toBeGreaterThan(0)
  } finally {
    await new Promise((resolve) => redirecting.close(resolve))
  }
})

test('a redirect within the origin is followed, with the key, at most 5 times', async () => {
  const seen: { path: string; auth: string | undefined }[] = []
  const server = createHttpServer((req, res) => {
    seen.push({ path: req.url ?? '', auth: req.headers.authorization })
    const hop = Number(/hop(\d+)/.exec(req.url ?? '')?.[1] ?? 0)
    if (req.url === '/v1/moved') res.writeHead(308, { Location: '/v1/hop1' }).end()
    else if (hop > 0) res.writeHead(307, { Location: `/v1/hop${hop + 1}` }).end()
    else res.writeHead(200).end('here')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const address = server.address()
    const base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/v1`
    const send = createProbeClient({ base, rate: Number.POSITIVE_INFINITY, timeoutMs: 2000, userAgent: 'test' })
    const observed = await send({ method: 'GET', path: '/moved', headers: { Authorization: 'Bearer k' } })
    // /moved, then hop1 to hop5: the sixth redirect is answered as it came.
    expect(observed).toMatchObject({ kind: 'answer', status: 307 })
    expect(seen.map(({ path }) => path)).toEqual(['/v1/moved', '/v1/hop1', '/v1/hop2', '/v1/hop3', '/v1/hop4', '/v1/hop5'])
    expect(seen.every(({ auth }) => auth === 'Bearer k')).toBe(true)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
})
