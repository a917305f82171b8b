import { existsSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import { afterEach, beforeAll, expect, test, vi } from 'vitest'
import { CLI, useProcesses } from './support/cli-process.js'

// Each test runs petstore-sim verify, a process, against a server: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

// `petstore-sim verify` against a service that answers what it likes: escape
// sequences in its Error codes, dates and records no scenario can hold, a
// record of a megabyte. The report is still printed, safe to show on a terminal.

const run = useProcesses()
const KEY = 'hostile-key-Zq81xK7mPw'
/** What a terminal would act on instead of showing: C0 and C1 controls, DEL, line separators, bidirectional overrides. */
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

interface Hostile {
  /** The `code` of every Error it answers. */
  code?: string
  /** The Deprecation header of GET /pets/{petId}. */
  deprecation?: string
  /** The body of GET /pets/7. */
  pet?: string
  /** Where it serves the API. */
  base?: string
  /** The Sunset header of GET /pets/{petId}. */
  sunset?: string
}

const servers: { close(): void }[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

beforeAll(() => {
  expect(existsSync(CLI), 'run "npm run build" first (npm test does)').toBe(true)
})

/** A stand-in of the service on 127.0.0.1: an empty list for the key, an Error with `code` for anything else, and pet 7. */
async function hostile({
  code = 'not_found',
  deprecation = '@1767225600',
  pet = '{"id":7}',
  base = '/v1',
  sunset = 'Fri, 01 Jan 2027 00:00:00 GMT',
}: Hostile): Promise<string> {
  const error = (res: ServerResponse, status: number, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify({ code, message: 'no', status }))
  const server = createServer((req, res) => {
    const authorized = req.headers.authorization === `Bearer ${KEY}`
    if (req.url === `${base}/store/orders` && req.method === 'GET')
      return authorized ? res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]') : error(res, 401)
    if (req.url?.startsWith(`${base}/pets/`)) {
      const headers = { Deprecation: deprecation, Sunset: sunset }
      if (!authorized) return error(res, 401, headers)
      if (req.url !== `${base}/pets/7`) return error(res, 404, headers)
      return res.writeHead(200, { 'Content-Type': 'application/json', ...headers }).end(pet)
    }
    return error(res, 404)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}${base}`
}

async function verify(target: string, ...args: string[]) {
  const child = run(process.execPath, [CLI, 'verify', '--target', target, '--pet', '7', '--rate', '100', ...args], {
    PETSTORE_SIM_VERIFY_KEY: KEY,
  })
  const code = await child.exited
  return { code, stdout: child.stdout(), stderr: child.stderr() }
}

const lineOf = (stdout: string, id: string) => stdout.split('\n').find((line) => line.split(/\s+/)[1] === id) ?? ''

test('an Error code holding terminal escapes is shown escaped in the text report, never sent to the terminal', async () => {
  const target = await hostile({ code: '\u001b[2J\u001b[Hok\u009b8m\u202ehidden\r\nfake line' })
  const result = await verify(target)
  expect(result.code).toBe(1)
  expect(result.stdout.replaceAll('\n', '')).not.toMatch(CONTROL)
  expect(lineOf(result.stdout, 'auth.no-key')).toContain('code: \\x1b[2J\\x1b[Hok\\x9b8m\\u202ehidden\\x0d\\x0afake line')
  // Still one line per check: a newline in a code cannot forge a line of the report.
  expect(result.stdout).not.toMatch(/^fake line/m)
})

test('a Deprecation date no scenario can hold (the year 10000) means no switch, not an aborted run', async () => {
  const target = await hostile({ deprecation: '@253402300800' })
  const result = await verify(target)
  expect(result.stderr).toBe('')
  expect(lineOf(result.stdout, 'pet.deprecation')).toMatch(/^differs .*service Deprecation: @253402300800; .*; no switch$/)
  expect(result.stdout).toMatch(/^\d+ checks: /m)
  expect(result.code).toBe(1)
})

test('a pet record nested past what a scenario holds means no switch for pet.record, and the report is printed', async () => {
  const deep = `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`
  const target = await hostile({ pet: deep })
  const result = await verify(target, '--json')
  expect(result.stderr).toBe('')
  const report = JSON.parse(result.stdout) as { checks: { id: string; outcome: string; switch: unknown }[]; noSwitch: string[] }
  expect(report.checks.find((check) => check.id === 'pet.record')).toMatchObject({ outcome: 'differs', switch: null })
  expect(report.noSwitch).toContain('pet.record')
  expect(result.code).toBe(1)
})

test('a huge pet record is quoted only in part, saying how much was left out; --json keeps the switch whole', async () => {
  const record = { id: 7, name: 'x'.repeat(1024 * 1024) }
  const text = JSON.stringify(record)
  const target = await hostile({ pet: text })

  const plain = await verify(target)
  expect(plain.code).toBe(1)
  expect(plain.stdout.length).toBeLessThan(32 * 1024)
  const line = lineOf(plain.stdout, 'pet.record')
  const left =
    /record: \{"id":7,"name":"x+… \((\d+) more characters left out\); simulator .*; switch pets: \{ '7': \{ id: 7, name: 'x+… \((\d+) more characters left out\)$/.exec(
      line,
    )
  expect(left, line.replace(/x{20,}/g, 'x…')).not.toBeNull()
  // What is shown and what is left out add up to the whole record.
  expect(text.length - Number(left?.[1])).toBe(4096)

  const json = await verify(target, '--json')
  const report = JSON.parse(json.stdout) as { checks: { id: string; service: { record: string }; switch: { pets: unknown } }[] }
  const check = report.checks.find(({ id }) => id === 'pet.record')
  expect(check?.service.record).toMatch(/^\{"id":7,"name":"x+… \(\d+ more characters left out\)$/)
  expect(check?.switch.pets).toEqual({ 7: record })
})

test('a target under a path the simulator cannot serve (a percent-escape) is still compared, the simulator serving /v1', async () => {
  const target = await hostile({ base: '/caf%C3%A9/v1' })
  const result = await verify(target)
  expect(result.stderr).toBe('')
  expect(lineOf(result.stdout, 'list.shape')).toMatch(/^match /)
  expect(lineOf(result.stdout, 'pet.record')).toMatch(/^differs .*service status: 200, record: \{"id":7\}; simulator status: 404/)
  expect(result.code).toBe(1)
})

test('a key the service echoes in a long header is redacted before the report bounds what it quotes', async () => {
  // Cut at 4096 characters as it came, the key would show its first 6 characters, which no redaction finds.
  const target = await hostile({ sunset: `${'x'.repeat(4090)}${KEY}` })
  const result = await verify(target)
  expect(lineOf(result.stdout, 'pet.sunset')).toMatch(/service Sunset: x{4090}\[key\]; simulator/)
  expect(result.stdout).not.toContain(KEY.slice(0, 6))
})
