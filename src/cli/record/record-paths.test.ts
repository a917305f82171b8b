// `petstore-sim record --path`: paths the spec does not show, read beside the list and kept as routes by the
// rule --record keeps forwarded answers by; hostile paths refused in one line, skipped answers named.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { useStandIns } from '../../../test/support/stand-in.js'
import { createSimulator } from '../../index.js'
import { parseRecordCommandLine } from './record-command-line.js'
import { recordMain } from './record-main.js'
import { MAX_RECORD_PATHS } from './record-paths.js'

const KEY = 'staging-secret-key-0123456789'
const startStandIn = useStandIns()
const dir = mkdtempSync(join(tmpdir(), 'petstore-record-paths-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A deployment: the list, an inventory with a cookie, a search per `q`, a version as text, a 503, an image, a body echoing the key. */
async function deployment(): Promise<string> {
  const standIn = await startStandIn((seen, res) => {
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) =>
      void res.writeHead(status, { 'Content-Type': type, ...headers }).end(body)
    if (seen.headers.authorization !== `Bearer ${KEY}`)
      return send(401, 'application/json', '{"code":"unauthorized","message":"no","status":401}')
    const url = new URL(seen.url, 'http://stand-in')
    switch (url.pathname) {
      case '/v1/store/orders':
        return send(200, 'application/json', '[{"id":1,"petId":7,"complete":false}]')
      case '/v1/store/inventory':
        return send(200, 'application/json', '{"available":3}', { 'Set-Cookie': 'sid=secret-session-cookie' })
      case '/v1/search':
        return send(200, 'application/json', JSON.stringify({ q: url.searchParams.get('q') }))
      case '/v1/version':
        return send(200, 'text/plain; charset=utf-8', '1.4.2')
      case '/v1/flaky':
        return send(503, 'application/json', '{"code":"unavailable","message":"later","status":503}')
      case '/v1/logo.png':
        return send(200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47]))
      case '/v1/whoami':
        return send(200, 'application/json', JSON.stringify({ key: KEY }))
      default:
        return send(404, 'application/json', '{"code":"not_found","message":"no","status":404}')
    }
  })
  return `${standIn.origin}/v1`
}

/** Runs `record` in process: its exit code, standard output and standard error. */
async function record(argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await recordMain(
    argv,
    { PETSTORE_SIM_RECORD_KEY: KEY },
    { stdout: (text) => out.push(text), stderr: (text) => err.push(text) },
  )
  return { code, stdout: out.join(''), stderr: err.join('') }
}

test('each --path becomes a route as --record keeps it; what is not kept is named with why, and is no failure', async () => {
  const target = await deployment()
  const file = join(dir, 'with-paths.json')
  const paths = ['/store/inventory', '/search?q=cat', '/search?q=rex', '/version', '/flaky', '/logo.png', '/whoami', '/missing']
  const { code, stderr } = await record([
    '--target',
    target,
    '--name',
    'staging',
    '--out',
    file,
    '--rate',
    '100',
    ...paths.flatMap((path) => ['--path', path]),
  ])
  expect(code).toBe(0)
  const lines = stderr.trimEnd().split('\n')
  expect(lines).toEqual([
    'GET /flaky not recorded: status 503 is not recorded (500 and above).',
    'GET /logo.png not recorded: the body is neither JSON nor text (Content-Type: image/png).',
    'GET /whoami not recorded: the body carries the key.',
    expect.stringMatching(/^The traffic showed 1 of the \d+ documented outcomes: listOrders\.200 \(1\); 8 answers beyond the spec\.$/),
  ])
  const text = readFileSync(file, 'utf8')
  expect(text).not.toContain(KEY)
  expect(text).not.toContain('secret-session-cookie')
  const scenario = JSON.parse(text) as { description: string; routes: { path: string; status: number; query?: object }[] }
  expect(scenario.description).toContain('5 of 8 paths as routes (3 not recorded)')
  expect(scenario.routes.map(({ path, status, query }) => [path, status, query])).toEqual([
    ['/store/inventory', 200, undefined],
    ['/search', 200, { q: 'cat' }],
    ['/search', 200, { q: 'rex' }],
    ['/version', 200, undefined],
    ['/missing', 404, undefined],
  ])
  // The file answers each path as the deployment did, per query.
  const sim = createSimulator({ scenario: file })
  const get = (path: string) => sim.fetch(`https://api.example.test/v1${path}`, { headers: { Authorization: 'Bearer petstore-test-key' } })
  expect(await (await get('/store/inventory')).json()).toEqual({ available: 3 })
  expect(await (await get('/search?q=rex')).json()).toEqual({ q: 'rex' })
  expect(await (await get('/search?q=cat')).json()).toEqual({ q: 'cat' })
  expect(await (await get('/version')).text()).toBe('1.4.2')
  sim.close()
})

test.each([
  ['store/inventory', '--path "store/inventory" must start with "/": a path under the target, such as /store/inventory.'],
  ['/store/orders', `--path "/store/orders" is the spec's operation listOrders, which the simulator answers itself`],
  ['/pets/7?x=1', `--path "/pets/7?x=1" is the spec's operation getPetById`],
  ['/a/../store/orders', '--path "/a/../store/orders" holds a "." or ".." segment, which a server reads as another path.'],
  ['/a/%2E%2e/b', '--path "/a/%2E%2e/b" holds a "." or ".." segment'],
  ['/a/./b', 'holds a "." or ".." segment'],
  ['/a\u0007b', '--path holds U+0007: write it in printable ASCII (percent-encode the rest).'],
  ['/a b', '--path holds U+0020'],
  ['/caf\u00e9', '--path holds U+00E9'],
  ['/a%0a', '--path "/a%0a" holds a percent-encoded control character.'],
  ['/a#top', 'holds a "#": a fragment is never sent to a server.'],
  ['//evil.example/x', 'holds an empty segment ("//")'],
  // What the server's one path rule refuses (api-path.ts) is never sent either.
  ['/a%2fb', '--path "/a%2fb" is refused: it has an encoded "/", "\\" or "." (%2f, %5c, %2e), which a server could read as another path.'],
  ['/a\\b', 'is refused: it has a backslash, a ";" or a control character'],
  ['/a;x=1', 'is refused: it has a backslash, a ";" or a control character'],
  ['/a%zz', 'is refused: it has a malformed percent-escape'],
  ['/v1/store/inventory', `starts with the target's own path /v1: give the path under it, such as /store/inventory.`],
  [`/${'a'.repeat(3000)}`, '--path is 3001 characters long; at most 2048.'],
])('--path %j is refused in one line, exit 2, nothing read', async (path, message) => {
  const base = ['--target', 'http://127.0.0.1:9/v1', '--name', 'n', '--key', KEY]
  expect(() => parseRecordCommandLine([...base, '--path', path], {})).toThrow(message)
  const { code, stdout, stderr } = await record([...base, '--path', path])
  expect([code, stdout, stderr.split('\n').length]).toEqual([2, '', 2])
  expect(stderr).not.toContain('\u0007')
})

test('a refused path that holds the key is not echoed', async () => {
  const base = ['--target', 'http://127.0.0.1:9/v1', '--name', 'n', '--key', KEY]
  const { code, stderr } = await record([...base, '--path', `/store/orders?token=${KEY}`])
  expect(code).toBe(2)
  expect(stderr).toMatch(/^--path is the spec's operation listOrders/)
  expect(stderr).not.toContain(KEY)
})

test(`more than ${MAX_RECORD_PATHS} paths are refused; a flag given twice keeps its last value, as before`, () => {
  const base = ['--target', 'http://127.0.0.1:9/v1', '--name', 'n', '--key', KEY]
  const many = Array.from({ length: MAX_RECORD_PATHS + 1 }, (_, index) => ['--path', `/p${index}`]).flat()
  expect(() => parseRecordCommandLine([...base, ...many], {})).toThrow(
    `--path is given 101 times; record reads at most ${MAX_RECORD_PATHS} paths.`,
  )
  expect(parseRecordCommandLine([...base, '--name', 'second', '--path', '/a', '--path', '/b'], {})).toMatchObject({
    name: 'second',
    paths: ['/a', '/b'],
  })
})
