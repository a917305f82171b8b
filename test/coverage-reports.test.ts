// `petstore-sim coverage --format ctrf|junit|json --out <file>` and `--by-test`: the reports CI dashboards read
// (issue 59, item 3), held to CTRF's published schema and to an XML parser, and the gate the same with every format.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { schema as ctrfSchema, validate as ctrfValidate } from 'ctrf'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { afterEach, expect, test } from 'vitest'
import { coverageMain } from '../src/cli/coverage-command/coverage-main.js'
import { createSimulator } from '../src/index.js'

// ajv-formats is CommonJS: Node hands its exports object to a default import, while Vite may hand the function itself.
const addFormats: typeof addFormatsModule.default = typeof addFormatsModule === 'function' ? addFormatsModule : addFormatsModule.default

const API = 'https://api.petstore.example/v1'
const KEY = { Authorization: 'Bearer petstore-test-key' }
/** A test name a runner may well give: markup characters, a right-to-left override, a lone surrogate, U+FFFF. */
const HOSTILE = 'orders <&"\'> \u202eevil\u202c \ud800 \uffff'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})
function scratch(): string {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-reports-'))
  folders.push(folder)
  return folder
}

/** Runs `petstore-sim coverage` in process with a clock that reads 1000, then 1750: the report's start and stop. */
function run(...argv: string[]) {
  const printed = { stdout: [] as string[], stderr: [] as string[] }
  const times = [1000, 1750]
  const now = () => times.shift() ?? 9999
  const code = coverageMain(argv, { stdout: (text) => printed.stdout.push(text), stderr: (text) => printed.stderr.push(text) }, now)
  return { code, stdout: printed.stdout.join(''), stderr: printed.stderr.join('') }
}

/**
 * A run's folder: one file that names its tests (a list and a cancel, each by its test; a third test made no
 * request), and one of an older version, with no `tests` and no recipes, that saw a shipped refusal.
 */
async function suiteFolder(): Promise<string> {
  const dir = join(scratch(), 'petstore-coverage')
  mkdirSync(dir)
  const named = createSimulator({ scenario: 'pending' })
  await named.fetch(`${API}/store/orders`, { headers: KEY })
  await named.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY })
  const coverage = named.coverage()
  const tests = [
    { name: 'orders.test.ts > lists the orders', outcomes: ['listOrders.200'] },
    { name: `orders.test.ts > ${HOSTILE}`, outcomes: ['cancelOrder.204'] },
  ]
  writeFileSync(join(dir, 'named.json'), JSON.stringify({ ...coverage, tests }))
  const older = createSimulator({ scenario: 'shipped' })
  await older.fetch(`${API}/store/orders/2`, { method: 'DELETE', headers: KEY })
  const { outcomes, exercised, total, provoked, deprecated } = older.coverage()
  const bare = outcomes.map(({ id, operation, status, code, count }) => ({ id, operation, status, code, count }))
  writeFileSync(join(dir, 'older.json'), JSON.stringify({ outcomes: bare, exercised, total, provoked, deprecated }))
  return dir
}

interface CtrfDocument {
  results: {
    tool: { name: string }
    summary: Record<string, number>
    tests: { name: string; status: string; duration: number; message?: string; extra: { count: number; tests: string[] } }[]
    extra: { shortfalls: string[] }
  }
}

test('--format ctrf writes a CTRF file that validates against CTRF’s published schema, each outcome a test', async () => {
  const dir = await suiteFolder()
  const file = join(scratch(), 'ctrf.json')
  const { code, stdout } = run(dir, '--format', 'ctrf', '--out', file, '--require', 'cancelOrder.404.order_not_found')
  expect(code).toBe(1)
  const report = JSON.parse(readFileSync(file, 'utf8')) as CtrfDocument
  const ajv = new Ajv({ allErrors: true, strict: true })
  addFormats(ajv)
  const validate = ajv.compile(ctrfSchema)
  expect(validate(report), JSON.stringify(validate.errors)).toBe(true)
  // And by CTRF's reference implementation, as a dashboard that uses it would read the file.
  expect(ctrfValidate(report)).toEqual({ valid: true, errors: [] })

  expect(report.results.tool.name).toBe('petstore-sim coverage')
  expect(report.results.summary).toMatchObject({
    tests: 12,
    passed: 3,
    failed: 1,
    skipped: 8,
    pending: 0,
    other: 0,
    start: 1000,
    stop: 1750,
  })
  const byName = Object.fromEntries(report.results.tests.map((entry) => [entry.name, entry]))
  expect(Object.keys(byName)).toHaveLength(12)
  expect(byName['listOrders.200']).toMatchObject({
    status: 'passed',
    duration: 0,
    extra: { count: 1, tests: ['orders.test.ts > lists the orders'] },
  })
  expect(byName['cancelOrder.204']?.extra.tests).toEqual([`orders.test.ts > ${HOSTILE}`])
  // Seen only in the older file: passed, with no test to name.
  expect(byName['cancelOrder.409.order_already_shipped']).toMatchObject({ status: 'passed', extra: { count: 1, tests: [] } })
  expect(byName['cancelOrder.404.order_not_found']?.status).toBe('failed')
  expect(byName['cancelOrder.404.order_not_found']?.message).toMatch(
    /^Required outcome cancelOrder\.404\.order_not_found was never seen\. To provoke it: ./,
  )
  expect(byName['listOrders.200.empty']).toMatchObject({
    status: 'skipped',
    message: expect.stringMatching(/^listOrders\.200\.empty was never seen\./),
  })
  expect(report.results.extra.shortfalls).toEqual(['Required outcome cancelOrder.404.order_not_found was never seen.'])
  // With --out the table still goes to stdout, then where the report went.
  expect(stdout).toMatch(/listOrders\.200\s+seen\s+1/)
  expect(stdout).toContain(`Wrote the ctrf report to ${file}.`)
})

test('--format junit writes JUnit XML with one <testcase> per outcome, <failure> for a required one never seen, <skipped/> for the others', async () => {
  const dir = await suiteFolder()
  const file = join(scratch(), 'junit.xml')
  expect(run(dir, '--format', 'junit', '--out', file, '--require', 'listOrders.200,getPetById.200', '--min', '50').code).toBe(1)
  const xml = readFileSync(file, 'utf8')
  expect(XMLValidator.validate(xml)).toBe(true)
  // No control character and nothing XML 1.0 cannot hold, whatever the test names held.
  expect(xml).not.toMatch(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]|[\u202e]/u)
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' }).parse(xml)
  const suite = parsed.testsuites.testsuite
  expect(suite).toMatchObject({ name: 'petstore-sim coverage', tests: '12', failures: '1', skipped: '8', errors: '0' })
  const cases = suite.testcase as Record<string, unknown>[]
  expect(cases).toHaveLength(12)
  expect(cases.every((entry) => entry['classname'] === 'petstore-sim coverage')).toBe(true)
  const named = (id: string) => cases.find((entry) => entry['name'] === id) ?? {}
  expect(named('getPetById.200')['failure']).toMatchObject({
    message: expect.stringContaining('Required outcome getPetById.200 was never seen.'),
  })
  expect(named('getPetById.200')['skipped']).toBeUndefined()
  expect(named('listOrders.200.empty')['skipped']).toBeDefined()
  expect(named('listOrders.200.empty')['failure']).toBeUndefined()
  expect(named('listOrders.200')['failure']).toBeUndefined()
  expect(named('listOrders.200')['system-out']).toBe('Seen 1 time.\nSeen by: orders.test.ts > lists the orders')
  // The hostile name, read back: markup intact as text, the override and what XML cannot hold shown as escapes.
  expect(named('cancelOrder.204')['system-out']).toBe(
    'Seen 1 time.\nSeen by: orders.test.ts > orders <&"\'> \\u202eevil\\u202c \\ud800 \\uffff',
  )
  // The gate's lines, as stderr gets them: the --min shortfall belongs to no one <testcase>.
  expect(suite['system-err']).toBe(
    'Required outcome getPetById.200 was never seen.\n3 of 12 (25%) of the outcomes were exercised, under --min 50%.',
  )
})

test('the gate and its exit codes are the same with every format, to stdout or to a file', async () => {
  const dir = await suiteFolder()
  const out = scratch()
  for (const format of ['table', 'json', 'ctrf', 'junit']) {
    const met = run(dir, '--format', format, '--require', 'listOrders.200', '--min', '25')
    expect([format, met.code, met.stderr]).toEqual([format, 0, ''])
    const missed = run(dir, '--format', format, '--require', 'cancelOrder.204,listOrders.200.empty', '--min', '26')
    expect([format, missed.code]).toEqual([format, 1])
    expect(missed.stderr).toBe(
      'Required outcome listOrders.200.empty was never seen.\n3 of 12 (25%) of the outcomes were exercised, under --min 26%.\n',
    )
    if (format === 'table') continue
    const file = join(out, `report.${format}`)
    expect(run(dir, '--format', format, '--out', file, '--require', 'listOrders.200.empty').code).toBe(1)
    expect(readFileSync(file, 'utf8').length).toBeGreaterThan(0)
  }
  // Without --out the report is stdout, whole: a CI step can pipe it.
  expect(JSON.parse(run(dir, '--format', 'ctrf').stdout)).toMatchObject({ reportFormat: 'CTRF', results: { summary: { tests: 12 } } })
  expect(XMLValidator.validate(run(dir, '--format', 'junit').stdout)).toBe(true)
  expect(run(dir, '--format', 'json').stdout).toBe(run(dir, '--json').stdout)
  // Only the reports and no temporary file are left beside them.
  expect(readdirSync(out).sort()).toEqual(['report.ctrf', 'report.json', 'report.junit'])
})

test('--by-test prints each outcome with the tests that saw it, and "(no test names)" for counts from files that name none', async () => {
  const dir = await suiteFolder()
  const { code, stdout } = run(dir, '--by-test')
  expect(code).toBe(0)
  const lines = stdout.split('\n')
  const after = (id: string) => lines.slice(lines.findIndex((line) => line.startsWith(`${id} `)) + 1)[0]
  expect(after('listOrders.200')).toBe('  orders.test.ts > lists the orders')
  // Shown, not obeyed: the override is its escape.
  expect(after('cancelOrder.204')).toBe(`  orders.test.ts > orders <&"'> \\u202eevil\\u202c \ud800 \uffff`)
  expect(after('cancelOrder.409.order_already_shipped')).toBe('  (no test names)')
  expect(lines.find((line) => line.startsWith('listOrders.200.empty '))).toMatch(/never$/)
  expect(after('listOrders.200.empty')).toMatch(/^listOrders\.401\.unauthorized /)
  expect(stdout).toContain('from 2 coverage files naming 2 tests.')

  const merged = JSON.parse(run(dir, '--by-test', '--json').stdout) as { tests: unknown; outcomes: { id: string; tests: string[] }[] }
  expect(merged.tests).toEqual([
    { name: 'orders.test.ts > lists the orders', outcomes: ['listOrders.200'] },
    { name: `orders.test.ts > ${HOSTILE}`, outcomes: ['cancelOrder.204'] },
  ])
  expect(merged.outcomes.find((outcome) => outcome.id === 'cancelOrder.409.order_already_shipped')?.tests).toEqual([])

  // With a report to a file, stdout gets the listing instead of the table.
  const file = join(scratch(), 'ctrf.json')
  expect(run(dir, '--by-test', '--format', 'ctrf', '--out', file).stdout).toContain('  orders.test.ts > lists the orders\n')
})

test('bad --format and --out: one line, exit 2, nothing written', async () => {
  const dir = await suiteFolder()
  const place = scratch()
  const refused = (...argv: string[]) => {
    const result = run(dir, ...argv)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr.split('\n')).toHaveLength(2)
    return result.stderr
  }
  expect(refused('--format', 'junt')).toBe(
    '--format is one of table, json, ctrf, junit, got "junt". Did you mean junit? Run petstore-sim coverage --help for the options.\n',
  )
  expect(refused('--format', 'xml')).toContain('--format is one of table, json, ctrf, junit, got "xml". Run')
  // A huge value is quoted in part, and its controls never reach the terminal.
  const huge = refused('--format', `\u001b[2J${'x'.repeat(100_000)}`)
  expect(huge.length).toBeLessThan(200)
  expect(huge).not.toContain('\u001b')
  expect(refused('--format')).toContain('Unknown or incomplete option --format.')
  expect(refused('--format', 'ctrf', '--format', 'junit')).toContain('--format is given more than once.')
  expect(refused('--json', '--format', 'ctrf')).toContain('--json and --format ctrf ask for two reports; give one.')
  expect(refused('--out', join(place, 'table.txt'))).toContain('--out writes a report file: give --format json, ctrf or junit with it')
  expect(refused('--format', 'ctrf', '--out', '')).toContain('--out names no file.')
  expect(refused('--format', 'ctrf', '--out', join(dir, 'report.json'))).toContain('is among the coverage files this command reads')

  const missing = join(place, 'no-such-folder', 'ctrf.json')
  expect(refused('--format', 'ctrf', '--out', missing)).toBe(`Failed to write ${missing}: no such folder. Nothing was written.\n`)
  mkdirSync(join(place, 'a-folder'))
  expect(refused('--format', 'junit', '--out', join(place, 'a-folder'))).toBe(
    `Failed to write ${join(place, 'a-folder')}: it is a folder. Nothing was written.\n`,
  )
  writeFileSync(join(place, 'a-file'), 'kept')
  expect(refused('--format', 'junit', '--out', join(place, 'a-file', 'junit.xml'))).toContain(': a part of its path is not a folder.')
  // A link is not replaced by a file: where it leads is never written either.
  writeFileSync(join(place, 'target.json'), 'old')
  symlinkSync(join(place, 'target.json'), join(place, 'link.json'))
  expect(refused('--format', 'ctrf', '--out', join(place, 'link.json'))).toBe(
    `Failed to write ${join(place, 'link.json')}: it is a link or a special file, not a regular file (leave out --out to print the report to standard output). Nothing was written.\n`,
  )
  expect(lstatSync(join(place, 'link.json')).isSymbolicLink()).toBe(true)
  expect(readFileSync(join(place, 'target.json'), 'utf8')).toBe('old')
  rmSync(join(place, 'link.json'))
  rmSync(join(place, 'target.json'))
  // A coverage file the run cannot read: the report is not written either.
  writeFileSync(join(dir, 'broken.json'), '{"outcomes": [')
  expect(refused('--format', 'ctrf', '--out', join(place, 'ctrf.json'))).toContain('broken.json is not a coverage file')
  expect(readdirSync(place).sort()).toEqual(['a-file', 'a-folder'])
  expect(readdirSync(join(place, 'a-folder'))).toEqual([])
  expect(readFileSync(join(place, 'a-file'), 'utf8')).toBe('kept')
})

test('--help names the formats, --out and --by-test', () => {
  const { code, stdout } = run('--help')
  expect(code).toBe(0)
  expect(stdout).toContain('--format <table|json|ctrf|junit>')
  expect(stdout).toContain('--out <file>')
  expect(stdout).toContain('--by-test')
})
