import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { coverageMain } from '../src/cli/coverage-command/coverage-main.js'
import { createSimulator, type Coverage } from '../src/index.js'
import { writeCoverage } from '../src/node.js'
import { CLI } from './support/cli-process.js'

const API = 'https://api.petstore.example/v1'
const KEY = { Authorization: 'Bearer petstore-test-key' }

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})
function scratch(): string {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-coverage-'))
  folders.push(folder)
  return folder
}

/** Runs `petstore-sim coverage` in process: its exit code and what it printed. */
function run(...argv: string[]) {
  const printed = { stdout: [] as string[], stderr: [] as string[] }
  const code = coverageMain(argv, { stdout: (text) => printed.stdout.push(text), stderr: (text) => printed.stderr.push(text) })
  return { code, stdout: printed.stdout.join(''), stderr: printed.stderr.join('') }
}

/** Two suites' folders: one saw lists and a cancel, the other a shipped refusal, the deprecated pets call and a fault. */
async function twoSuites(): Promise<{ web: string; mobile: string }> {
  const root = scratch()
  const [web, mobile] = [join(root, 'web'), join(root, 'mobile')]
  const first = createSimulator({ scenario: 'pending' })
  await first.fetch(`${API}/store/orders`, { headers: KEY })
  writeCoverage(first.coverage(), { dir: web })
  await first.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY })
  first.clearCoverage()
  await first.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY })
  await first.fetch(`${API}/store/orders`, { headers: KEY })
  writeCoverage(first.coverage(), { dir: web })
  const second = createSimulator({ scenario: 'shipped' })
  await second.fetch(`${API}/store/orders/2`, { method: 'DELETE', headers: KEY })
  await second.fetch(`${API}/pets/1`, { headers: KEY })
  second.addFault({ operation: 'listOrders', kind: 'status', status: 503, times: 1 })
  await second.fetch(`${API}/store/orders`, { headers: KEY })
  writeCoverage(second.coverage(), { dir: mobile })
  return { web, mobile }
}

test('writeCoverage writes one new file per call, in petstore-coverage/ by default', async () => {
  const cwd = process.cwd()
  const folder = scratch()
  process.chdir(folder)
  try {
    const sim = createSimulator({ scenario: 'pending' })
    const files = [writeCoverage(sim.coverage()), writeCoverage(sim.coverage())]
    expect(new Set(files).size).toBe(2)
    expect(readdirSync(join(folder, 'petstore-coverage')).sort()).toEqual(files.map((file) => file.split('/').at(-1)).sort())
  } finally {
    process.chdir(cwd)
  }
})

test('merges the files of two suites into one table of every outcome, its count and the share exercised', async () => {
  const { web, mobile } = await twoSuites()
  const { code, stdout, stderr } = run(web, mobile)
  expect(code).toBe(0)
  const rows = Object.fromEntries(
    stdout
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((cells) => cells.length === 3 && cells[0]?.includes('.'))
      .map(([id, mark, count]) => [id, `${mark} ${count}`]),
  )
  expect(rows).toMatchObject({
    'listOrders.200': 'seen 2',
    'listOrders.200.empty': 'never 0',
    'cancelOrder.204': 'never 0',
    'cancelOrder.409.order_not_pending': 'seen 1',
    'cancelOrder.409.order_already_shipped': 'seen 1',
    'getPetById.404.pet_not_found': 'seen 1',
  })
  expect(Object.keys(rows)).toHaveLength(12)
  expect(stdout).toContain("4 of 12 (33.3%) of the service's documented outcomes exercised, from 3 coverage files.")
  expect(stdout).toMatch(/fault\s+listOrders\.503\.service_unavailable\s+1/)
  expect(stderr).toBe('Warning: 1 call of the deprecated GET /pets/{petId} (getPetById), which is sunset on 2027-01-01.\n')
})

test('--json prints the merged result in the shape sim.coverage() gives, with the tests that saw each outcome', async () => {
  const { web, mobile } = await twoSuites()
  const { code, stdout } = run(web, mobile, '--json')
  expect(code).toBe(0)
  const merged = JSON.parse(stdout) as Coverage
  // These files come from no test runner's entry: no test is named, and each outcome says so with an empty list.
  expect(Object.keys(merged)).toEqual([...Object.keys(createSimulator().coverage()), 'tests'])
  expect(merged.tests).toEqual([])
  const listed = createSimulator().coverage().outcomes[0]
  expect(merged.outcomes.find((outcome) => outcome.id === 'listOrders.200')).toEqual({
    id: 'listOrders.200',
    operation: 'listOrders',
    status: 200,
    code: null,
    count: 2,
    recipe: listed?.recipe,
    tests: [],
  })
  expect(merged).toMatchObject({ exercised: 4, total: 12 })
  expect(merged.deprecated[0]?.calls).toBe(1)
})

test('--require and --min fail (exit 1) and pass (exit 0) as they should', async () => {
  const { web, mobile } = await twoSuites()
  expect(run(web, mobile, '--require', 'cancelOrder.409.order_already_shipped,listOrders.200').code).toBe(0)
  const missing = run(web, mobile, '--require', 'listOrders.200,cancelOrder.204', '--require', 'listOrders.200.empty')
  expect(missing.code).toBe(1)
  expect(missing.stderr).toContain('Required outcome cancelOrder.204 was never seen.\n')
  expect(missing.stderr).toContain('Required outcome listOrders.200.empty was never seen.\n')
  expect(run(web, mobile, '--min', '33').code).toBe(0)
  const under = run(web, mobile, '--min', '34')
  expect(under.code).toBe(1)
  expect(under.stderr).toContain('4 of 12 (33.3%) of the outcomes were exercised, under --min 34%.')
  // Only the service's own outcomes count: the 503 a fault made is no outcome of listOrders.
  expect(run(mobile, '--min', '25').code).toBe(1)
})

test('bad input exits 2 with one line: no such folder, an unknown outcome id, a file that is not a coverage file', async () => {
  const { web } = await twoSuites()
  const gone = join(scratch(), 'gone')
  const noFolder = run(gone)
  expect(noFolder).toMatchObject({ code: 2, stdout: '' })
  expect(noFolder.stderr).toBe(`Failed to read the folder ${gone}: no such folder.\n`)

  const typo = run(web, '--require', 'cancelOrder.409.order_allready_shipped')
  expect(typo.code).toBe(2)
  expect(typo.stderr).toContain('no outcome of the service. Did you mean cancelOrder.409.order_already_shipped?')

  const other = scratch()
  writeFileSync(join(other, 'package.json'), '{"name": "an-app"}')
  const notCoverage = run(other)
  expect(notCoverage.code).toBe(2)
  expect(notCoverage.stderr).toMatch(
    /package\.json is not a coverage file: it has no "outcomes" list \(writeCoverage and GET \/__sim\/coverage write one\)\.\n$/,
  )
  writeFileSync(join(other, 'package.json'), JSON.stringify({ ...createSimulator().coverage(), total: 'twelve' }))
  expect(run(other).stderr).toContain('package.json is not a coverage file (as sim.coverage() or writeCoverage() gives): total: ')
  writeFileSync(join(other, 'package.json'), 'not json')
  expect(run(other).stderr).toContain('is not a coverage file: it is not JSON.')

  const empty = scratch()
  mkdirSync(join(empty, 'nothing'))
  expect(run(join(empty, 'nothing')).code).toBe(2)
  expect(run(web, '--min', 'most').code).toBe(2)
  expect(run(web, '--min', '101').code).toBe(2)
  expect(run(web, '--verbose').code).toBe(2)
})

test('a folder named twice, or through a link, is counted once; a *.json that is no regular file is bad input', async () => {
  const { web } = await twoSuites()
  const link = join(scratch(), 'web-link')
  symlinkSync(web, link)
  const once = JSON.parse(run(web, '--json').stdout) as Coverage
  const twice = JSON.parse(run(web, web, link, '--json').stdout) as Coverage
  expect(twice.outcomes).toEqual(once.outcomes)
  const odd = scratch()
  mkdirSync(join(odd, 'looks-like.json'))
  const refused = run(odd)
  expect(refused.code).toBe(2)
  expect(refused.stderr).toContain('looks-like.json is not a coverage file: it is not a regular file.')
})

test('a coverage file of another version, naming an outcome this one does not document, is refused', async () => {
  const folder = scratch()
  const coverage = createSimulator().coverage()
  const recipe = { text: 'Ask for tea.', steps: [] }
  coverage.outcomes.push({ id: 'listOrders.418.teapot', operation: 'listOrders', status: 418, code: 'teapot', count: 1, recipe })
  writeFileSync(join(folder, 'old.json'), JSON.stringify(coverage))
  const { code, stderr } = run(folder)
  expect(code).toBe(2)
  expect(stderr).toContain('names an outcome this version does not document: listOrders.418.teapot.')
  const forged = createSimulator().coverage()
  forged.deprecated = [{ operation: 'listOrders', method: 'GET\u001b[2J', path: '/x', calls: 1, sunset: '2027-01-01T00:00:00.000Z' }]
  writeFileSync(join(folder, 'old.json'), JSON.stringify(forged))
  expect(run(folder).stderr).toContain('names listOrders as deprecated, which this version does not.')
})

test('the installed command reads petstore-coverage/ in the working directory and exits with the verdict', async () => {
  const folder = scratch()
  const sim = createSimulator({ scenario: 'pending' })
  await sim.fetch(`${API}/store/orders`, { headers: KEY })
  writeCoverage(sim.coverage(), { dir: join(folder, 'petstore-coverage') })
  const exit = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = execFile(process.execPath, [CLI, 'coverage', '--require', 'cancelOrder.204'], { cwd: folder }, (_error, stdout) =>
      resolve({ code: child.exitCode, stdout }),
    )
  })
  expect(exit.code).toBe(1)
  expect(exit.stdout).toMatch(/listOrders\.200\s+seen\s+1/)
})
