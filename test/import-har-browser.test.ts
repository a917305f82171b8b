// import-har on a HAR a real browser wrote (Chromium through Playwright's recordHar: test/fixtures/har/make-browser-har.mjs):
// the built command imports what it can with one summary line, and the scenario answers each kept request as the HAR did.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { createSimulator, type Simulator } from '../src/index.js'
import { CLI, ROOT, useProcesses } from './support/cli-process.js'

// Each test starts the built CLI as a process: seconds on an idle machine, more beside other work.
vi.setConfig({ testTimeout: 30_000 })

const HAR = join(ROOT, 'test/fixtures/har/browser.har')
const TEST_KEY = 'Bearer petstore-test-key'

interface HarRecord {
  request: { method: string; url: string; headers: { name: string; value: string }[]; cookies: { value: string }[] }
  response: { status: number; headers: { name: string; value: string }[]; content: { text?: string; encoding?: string } }
}
const entries = (JSON.parse(readFileSync(HAR, 'utf8')) as { log: { entries: HarRecord[] } }).log.entries

/** The first entry of `method` at `target`, or at `target` and more query parameters. */
function entryOf(method: string, target: string): HarRecord {
  const at = (url: string) => {
    const { pathname, search } = new URL(url)
    return `${pathname}${search}` === `/v1${target}` || `${pathname}${search}`.startsWith(`/v1${target}&`)
  }
  const found = entries.find((entry) => entry.request.method === method && at(entry.request.url))
  if (found === undefined) throw new Error(`the fixture has no ${method} ${target}`)
  return found
}
const headerOf = (entry: HarRecord, name: string) =>
  entry.response.headers.find((header) => header.name.toLowerCase() === name)?.value ?? null

/** Every credential the browser sent: the bearer token, the session cookie, the api_key in a query. */
const SECRETS = [
  ...new Set(
    entries.flatMap(({ request }) => [
      ...request.headers.filter(({ name }) => name === 'Authorization').map(({ value }) => value.replace('Bearer ', '')),
      ...request.cookies.map(({ value }) => value),
      ...[...new URL(request.url).searchParams].filter(([name]) => name === 'api_key').map(([, value]) => value),
    ]),
  ),
]

const run = useProcesses()
const folder = mkdtempSync(join(tmpdir(), 'petstore-browser-har-'))
const file = join(folder, 'browser.json')
let imported: { code: number | string | null; stdout: string; stderr: string }
let sim: Simulator

beforeAll(async () => {
  const child = run(process.execPath, [CLI, 'import-har', HAR, '--name', 'browser', '--out', file])
  imported = { code: await child.exited, stdout: child.stdout(), stderr: child.stderr() }
  sim = createSimulator({ scenario: file })
}, 30_000)
afterAll(() => {
  sim?.close()
  rmSync(folder, { recursive: true, force: true })
})

test('the fixture is what the issue asks: a real browser, JSON, text, an image, a 5xx, a spec operation, per-query answers', () => {
  expect(readFileSync(HAR, 'utf8').length).toBeLessThan(100_000)
  const har = JSON.parse(readFileSync(HAR, 'utf8')) as { log: { creator: { name: string }; browser: { name: string } } }
  expect([har.log.creator.name, har.log.browser.name]).toEqual(['Playwright', 'chromium'])
  const types = entries.map((entry) => `${entry.response.status} ${headerOf(entry, 'content-type') ?? ''}`)
  for (const type of ['200 application/json', '200 text/plain; charset=utf-8', '200 image/png', '503 application/json', '204 '])
    expect(types).toContain(type)
  expect(SECRETS.length).toBeGreaterThanOrEqual(3)
})

test('import-har imports it: exit 0, the file written, one summary line, then what the traffic showed by outcome', () => {
  expect(imported.code).toBe(0)
  expect(imported.stdout).toMatch(/^Wrote .*browser\.json: Imported from a HAR \(base \/v1\): 2 orders;/)
  const lines = imported.stderr.split('\n')
  expect(lines[0]).toBe('skipped 6: 2 spec operations, 1 image, 1 server error, 1 repeated, 1 outside the base')
  // The cancels are spec operations: never routes, and not dropped without a word either.
  expect(lines[1]).toMatch(
    /^The traffic showed \d+ of the 12 documented outcomes: .*cancelOrder\.204 \(1\), cancelOrder\.409\.order_already_shipped \(1\)/,
  )
  expect(lines[1]).toContain('listOrders.200 (1)')
})

test('the scenario answers each kept request as the HAR did: status, Content-Type and body bytes, ?q=cat and ?q=rex their own', async () => {
  const call = (method: string, target: string) =>
    sim.fetch(`https://api.example.test/v1${target}`, { method, headers: { Authorization: TEST_KEY } })
  // Routes: answered byte for byte.
  for (const target of ['/store/inventory', '/version', '/search?q=cat', '/search?q=rex', '/store/promotions?region=eu&api_key=x']) {
    const entry = entryOf('GET', target.replace('&api_key=x', ''))
    const answer = await call('GET', target)
    expect([target, answer.status]).toEqual([target, entry.response.status])
    expect(answer.headers.get('content-type')).toBe(headerOf(entry, 'content-type'))
    expect(await answer.text()).toBe(entry.response.content.text)
  }
  expect(await (await call('GET', '/search?q=cat')).text()).not.toBe(await (await call('GET', '/search?q=rex')).text())
  // The list and the pet record, answered by the simulator's own operations with the HAR's values.
  for (const target of ['/store/orders', '/pets/1']) {
    const entry = entryOf('GET', target)
    const answer = await call('GET', target)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await answer.json()).toEqual(JSON.parse(entry.response.content.text ?? ''))
  }
  // Skipped: the image, the 503.
  expect((await call('GET', '/pets/1/photo')).status).toBe(404)
  expect((await call('GET', '/store/stats')).status).toBe(404)
})

test('no credential of the HAR is in the written file or the output', () => {
  const written = readFileSync(file, 'utf8')
  for (const secret of SECRETS) {
    expect(written).not.toContain(secret)
    expect(imported.stdout + imported.stderr).not.toContain(secret)
  }
  expect(written).not.toContain('api_key')
})

test('--strict refuses it: one line naming the image, exit 2, nothing written', async () => {
  const out = join(folder, 'strict.json')
  const child = run(process.execPath, [CLI, 'import-har', HAR, '--name', 'browser', '--out', out, '--strict'])
  expect(await child.exited).toBe(2)
  expect(child.stdout()).toBe('')
  expect(child.stderr()).toBe(
    'entry 3 (GET /v1/pets/1/photo): the body is neither JSON nor text (Content-Type: image/png). Without --strict, such entries are skipped.\n',
  )
  expect(() => readFileSync(out)).toThrow()
})
