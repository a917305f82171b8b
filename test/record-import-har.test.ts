// `petstore-sim record` and `import-har` end to end: a local stand-in of the real service answers, the
// commands write scenario files, and the simulator loads each file as written and answers as the stand-in did.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, onTestFinished, test, vi } from 'vitest'
import { importHarMain } from '../src/cli/import-har/import-har-main.js'
import { recordMain } from '../src/cli/record/record-main.js'
import { parseExactJson } from '../src/core/exact-json.js'
import { createSimulator, loadScenarioFile } from '../src/index.js'
import { CLI, useProcesses } from './support/cli-process.js'
import { closedPort, type StandIn, startStandIn } from './support/stand-in.js'

// Each test starts the built CLI as a process: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

/** The real service's key and the browser's session: no file or output may hold either. */
const KEY = 'staging-key-Zq81xK7mPw4n'
const SESSION = 'session-cookie-Hq20vL6tRb'
const TEST_KEY = 'Bearer petstore-test-key'

const ORDERS_TEXT =
  '[{"id":9007199254740993,"petId":7,"quantity":2,"shipDate":"2026-02-01T10:00:00.000Z","complete":true},' +
  '{"id":2,"petId":8,"quantity":1,"complete":false}]'
const PETS: Record<string, string> = { '7': '{"id":7,"name":"Rex","tags":["good"]}', '8': '{"id":8,"name":"Tom"}' }

let standIn: StandIn | undefined
afterEach(async () => {
  await standIn?.close()
  standIn = undefined
})

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-record-har-'))
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
  return folder
}

/** The stand-in: the list, pet records, an inventory and a create the spec does not show, all behind the key. */
async function startService(): Promise<string> {
  standIn = await startStandIn((seen, res) => {
    const json = (status: number, body: string, headers: Record<string, string> = {}) =>
      void res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(body)
    if (seen.headers.authorization !== `Bearer ${KEY}`) return json(401, '{"code":"unauthorized","message":"no key","status":401}')
    const path = seen.url.split('?')[0] ?? ''
    const session = { 'Set-Cookie': `sid=${SESSION}; Path=/; HttpOnly`, 'X-Request-Id': 'r-1' }
    if (seen.method === 'GET' && path === '/v1/store/orders') return json(200, ORDERS_TEXT, session)
    if (seen.method === 'GET' && path === '/v1/store/inventory') return json(200, '{"available":3,"sold":9007199254740995}', session)
    if (seen.method === 'POST' && path === '/v1/store/orders') return json(201, '{"id":3,"petId":7,"quantity":1}', session)
    const pet = PETS[path.replace('/v1/pets/', '')]
    if (seen.method === 'GET' && pet !== undefined) return json(200, pet)
    json(404, '{"code":"not_found","message":"no such thing","status":404}')
  })
  return `${standIn.origin}/v1`
}

function capture() {
  const lines: string[] = []
  return { lines, out: { stdout: (text: string) => lines.push(text), stderr: (text: string) => lines.push(`ERR ${text}`) } }
}

const exact = (text: string) => parseExactJson(text)

test('record writes a file that loads as written, lists what the service listed, and holds no key', async () => {
  const target = await startService()
  const file = join(temporaryFolder(), 'staging.json')
  const { lines, out } = capture()
  const code = await recordMain(
    ['--target', target, '--name', 'staging', '--out', file, '--pets', '--rate', '100'],
    {
      PETSTORE_SIM_RECORD_KEY: KEY,
    },
    out,
  )
  // Beside the file, stderr says what the traffic showed (traffic-outcomes.ts), and nothing else.
  expect(lines.filter((line) => line.startsWith('ERR'))[0]).toMatch(
    /^ERR The traffic showed 2 of the 12 documented outcomes: listOrders\.200 \(1\), getPetById\.200 \(2\)/,
  )
  expect(code).toBe(0)
  const written = readFileSync(file, 'utf8')
  expect(written).not.toContain(KEY)
  expect(lines.join('')).not.toContain(KEY)
  expect(lines.filter((line) => !line.startsWith('ERR'))).toEqual([`Wrote ${file}: ${loadScenarioFile(file).description}\n`])
  expect(loadScenarioFile(file).description).toContain('status from complete, as the list has no status field')

  const sim = createSimulator({ scenario: file })
  onTestFinished(() => sim.close())
  const list = await sim.fetch('https://api.example.test/v1/store/orders', { headers: { Authorization: TEST_KEY } })
  expect(list.status).toBe(200)
  expect(exact(await list.text())).toEqual(exact(ORDERS_TEXT))
  const pet = await sim.fetch('https://api.example.test/v1/pets/7', { headers: { Authorization: TEST_KEY } })
  expect(exact(await pet.text())).toEqual(exact(PETS['7'] ?? ''))
  // The real key was never written, so the simulator does not take it.
  const withRealKey = await sim.fetch('https://api.example.test/v1/store/orders', { headers: { Authorization: `Bearer ${KEY}` } })
  expect(withRealKey.status).toBe(401)
  expect(standIn?.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual(['GET /v1/store/orders', 'GET /v1/pets/7', 'GET /v1/pets/8'])
})

test('record: an unreachable target or a refused key is one line on stderr, exit 2, and no file', async () => {
  const file = join(temporaryFolder(), 'staging.json')
  const unreachable = await recordMain(
    ['--target', `http://127.0.0.1:${await closedPort()}/v1`, '--name', 'staging', '--out', file, '--rate', '100'],
    { PETSTORE_SIM_RECORD_KEY: KEY },
    capture().out,
  )
  expect(unreachable).toBe(2)
  const target = await startService()
  const refused = capture()
  expect(
    await recordMain(['--target', target, '--name', 'staging', '--out', file, `--key=${KEY}x`, '--rate', '100'], {}, refused.out),
  ).toBe(2)
  expect(refused.lines).toEqual([`ERR GET ${target}/store/orders answered 401 "unauthorized", not 200 with the list of orders.\n`])
  const usage = capture()
  expect(await recordMain(['--target', target, '--out', file, '--key', KEY], {}, usage.out)).toBe(2)
  expect(usage.lines).toEqual([
    'ERR record needs --name <name>, the name of the scenario it writes. Run petstore-sim record --help for the options.\n',
  ])
  expect(existsSync(file)).toBe(false)
})

/** One HAR entry as DevTools and Playwright write it, from a real exchange with the stand-in. */
async function exchange(url: string, method = 'GET') {
  const requestHeaders = { Authorization: `Bearer ${KEY}`, Cookie: `sid=${SESSION}` }
  const answer = await fetch(url, { method, headers: requestHeaders })
  const text = await answer.text()
  return {
    startedDateTime: '2026-03-01T12:00:00.000Z',
    time: 1,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      headers: Object.entries(requestHeaders).map(([name, value]) => ({ name, value })),
      cookies: [{ name: 'sid', value: SESSION }],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: answer.status,
      statusText: answer.statusText,
      httpVersion: 'HTTP/1.1',
      headers: [...answer.headers].map(([name, value]) => ({ name, value })),
      cookies: [],
      content: { size: text.length, mimeType: answer.headers.get('content-type') ?? '', text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  }
}

test('import-har: a HAR of the stand-in gives a file that loads as written and answers as the stand-in did, without credentials', async () => {
  const target = await startService()
  const entries = [
    await exchange(`${target}/store/orders`),
    await exchange(`${target}/store/inventory?fresh=1`),
    await exchange(`${target}/store/orders`, 'POST'),
    await exchange(`${target}/pets/8`),
  ]
  const folder = temporaryFolder()
  const har = join(folder, 'session.har')
  writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }))
  const file = join(folder, 'session.json')
  const { lines, out } = capture()
  expect(importHarMain([har, '--name', 'session', '--out', file], out)).toBe(0)
  // Every entry was taken: no skipped line, only what the traffic showed.
  expect(lines.filter((line) => line.startsWith('ERR'))[0]).toMatch(
    /^ERR The traffic showed 2 of the 12 documented outcomes: listOrders\.200 \(1\), getPetById\.200 \(1\); 2 answers beyond the spec\.\n$/,
  )
  const written = readFileSync(file, 'utf8')
  for (const secret of [KEY, SESSION]) {
    expect(written).not.toContain(secret)
    expect(lines.join('')).not.toContain(secret)
  }
  const scenario = loadScenarioFile(file)
  expect(scenario.routes?.map((route) => `${route.method} ${route.path} ${JSON.stringify(route.query)} ${route.status}`)).toEqual([
    'GET /store/inventory {"fresh":"1"} 200',
    'POST /store/orders undefined 201',
  ])

  const sim = createSimulator({ scenario: file })
  onTestFinished(() => sim.close())
  const call = (path: string, method = 'GET') =>
    sim.fetch(`https://api.example.test/v1${path}`, { method, headers: { Authorization: TEST_KEY } })
  const list = await call('/store/orders')
  expect(exact(await list.text())).toEqual(exact(ORDERS_TEXT))
  // The route keeps the query it was asked with.
  const inventory = await call('/store/inventory?fresh=1')
  expect(inventory.status).toBe(200)
  expect(inventory.headers.get('x-request-id')).toBe('r-1')
  expect(inventory.headers.get('set-cookie')).toBeNull()
  expect(exact(await inventory.text())).toEqual(exact('{"available":3,"sold":9007199254740995}'))
  const created = await call('/store/orders', 'POST')
  expect(created.status).toBe(201)
  expect(await created.json()).toEqual({ id: 3, petId: 7, quantity: 1 })
  expect(exact(await (await call('/pets/8')).text())).toEqual(exact(PETS['8'] ?? ''))
})

test('import-har: input that is no HAR, or has nothing under the base, is one line on stderr, exit 2, and no file', () => {
  const folder = temporaryFolder()
  const file = join(folder, 'out.json')
  const notHar = join(folder, 'page.html')
  writeFileSync(notHar, '<html></html>')
  const other = join(folder, 'other.har')
  writeFileSync(
    other,
    JSON.stringify({
      log: { entries: [{ request: { method: 'GET', url: 'https://cdn.example.test/app.js' }, response: { status: 200, content: {} } }] },
    }),
  )
  const { lines, out } = capture()
  expect(importHarMain([notHar, '--name', 'x', '--out', file], out)).toBe(2)
  expect(importHarMain([other, '--name', 'x', '--out', file], out)).toBe(2)
  expect(lines).toEqual([
    expect.stringMatching(/^ERR The file is not a HAR: it is not JSON \(.*\)\.\n$/),
    "ERR The HAR has no entry under /v1 (of its 1 entries); give the API's base with --base.\n",
  ])
  expect(existsSync(file)).toBe(false)
})

const run = useProcesses()

// The built command, a process of its own: a read that blocks (a FIFO without a writer) or never ends
// (/dev/zero) holds that process, not this worker, and the test fails on its timeout.
describe.skipIf(process.platform === 'win32')('import-har reads regular files only', () => {
  test('a FIFO, a device, a folder and a file over 64 MiB are each one line on stderr, exit 2, and no file', async () => {
    const folder = temporaryFolder()
    const fifo = join(folder, 'session.har')
    execFileSync('mkfifo', [fifo])
    const huge = join(folder, 'huge.har')
    writeFileSync(huge, '')
    // Sparse: 64 MiB and a byte, written in no time.
    truncateSync(huge, 64 * 1024 * 1024 + 1)
    const file = join(folder, 'out.json')
    const refusals: string[] = []
    for (const input of [fifo, '/dev/zero', folder, huge]) {
      const child = run(process.execPath, [CLI, 'import-har', input, '--name', 'x', '--out', file])
      expect(await child.exited).toBe(2)
      expect(child.stdout()).toBe('')
      refusals.push(child.stderr())
    }
    expect(refusals).toEqual([
      `Failed to read ${fifo}: it is a named pipe (FIFO), not a regular file.\n`,
      'Failed to read /dev/zero: it is a device, not a regular file.\n',
      `Failed to read ${folder}: it is a folder, not a regular file.\n`,
      `${huge} is 67108865 bytes; the largest HAR read is 67108864 bytes (64 MiB).\n`,
    ])
    expect(existsSync(file)).toBe(false)
  })
})
