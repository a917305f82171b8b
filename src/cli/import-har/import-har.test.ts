import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { stringifyExactJson } from '../../core/exact-json.js'
import { parseScenario } from '../../core/scenario/parse-scenario.js'
import { parseScenarioJson } from '../../core/scenario/scenario-file.js'
import { HarImportError } from './har-entries.js'
import { importHar, MAX_HAR_CHARS } from './import-har.js'
import { IMPORT_HAR_FLAGS, importHarHelpText, importHarMain } from './import-har-main.js'
import { readHarFile } from './read-har-file.js'

const SECRET = 'browser-session-token-0123456789'

interface EntryInput {
  method?: string
  url: string
  status?: number
  text?: string
  encoding?: 'base64'
  mimeType?: string
  headers?: Record<string, string>
  requestHeaders?: Record<string, string>
}

/** A HAR as DevTools and Playwright write it, with the client's credentials on every request. */
function har(entries: EntryInput[]): string {
  return JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: entries.map((entry) => ({
        startedDateTime: '2026-01-01T00:00:00.000Z',
        request: {
          method: entry.method ?? 'GET',
          url: entry.url,
          headers: [
            { name: 'Authorization', value: `Bearer ${SECRET}` },
            { name: 'Cookie', value: `theme=dark; sid=${SECRET}` },
            ...Object.entries(entry.requestHeaders ?? {}).map(([name, value]) => ({ name, value })),
          ],
        },
        response: {
          status: entry.status ?? 200,
          headers: Object.entries({ 'content-type': entry.mimeType ?? 'application/json', ...entry.headers }).map(([name, value]) => ({
            name,
            value,
          })),
          content: {
            size: 0,
            mimeType: entry.mimeType ?? 'application/json',
            ...(entry.text === undefined ? {} : { text: entry.text }),
            ...(entry.encoding ? { encoding: entry.encoding } : {}),
          },
        },
      })),
    },
  })
}

const API = 'https://api.example.test/v1'

test('the last 200 list gives the orders, other entries under the base the routes (first per method, path and query), pets their records', () => {
  const text = har([
    { url: `${API}/store/orders`, text: '[{"id":1,"complete":false}]' },
    // The browser's cache answered: no answer of the service's own, so the next one gives the route.
    { url: `${API}/store/inventory`, status: 304 },
    {
      url: `${API}/store/inventory?fresh=1`,
      text: '{"available":3}',
      headers: { 'set-cookie': `sid=${SECRET}`, 'x-trace': 'a', ':status': '200' },
    },
    { url: `${API}/store/inventory`, text: '{"available":99}' },
    { url: `${API}/store/orders`, status: 401, text: '{"code":"unauthorized"}' },
    { url: `${API}/store/orders/`, text: '[{"id":9007199254740993,"complete":true},{"id":2}]' },
    { method: 'POST', url: `${API}/store/orders`, status: 201, text: Buffer.from('{"id":3}').toString('base64'), encoding: 'base64' },
    { method: 'DELETE', url: `${API}/store/orders/2`, status: 204 },
    { url: `${API}/pets/7`, text: '{"id":7,"name":"Rex"}' },
    { url: `${API}/pets/8`, status: 404, text: '{"code":"pet_not_found"}' },
    { url: 'https://cdn.example.test/app.js', mimeType: 'text/javascript', text: 'alert(1)' },
    { url: `${API}/blocked`, status: 0 },
  ])
  const scenario = importHar(text, { name: 'from-har' })
  expect(scenario.orders).toEqual([
    { id: 9007199254740993n, complete: true, status: 'shipped' },
    { id: 2, status: 'pending' },
  ])
  expect(scenario.pets).toEqual({ 7: { id: 7, name: 'Rex' } })
  expect(scenario.routes).toEqual([
    {
      method: 'GET',
      path: '/store/inventory',
      query: { fresh: '1' },
      status: 200,
      headers: { 'content-type': 'application/json', 'x-trace': 'a' },
      body: { available: 3 },
    },
    // Another query: another route.
    { method: 'GET', path: '/store/inventory', status: 200, headers: { 'content-type': 'application/json' }, body: { available: 99 } },
    { method: 'POST', path: '/store/orders', status: 201, headers: { 'content-type': 'application/json' }, body: { id: 3 } },
  ])
  expect(scenario.description).toMatch(
    /^Imported from a HAR \(base \/v1\): 2 orders; status from complete.*; 3 routes; 1 pet record; skipped 7: 4 spec operations, 1 cached, 1 no answer, 1 outside the base\.$/,
  )
  const written = stringifyExactJson(scenario, 2)
  expect(written).not.toContain(SECRET)
  // It loads as written, routes included, as the loader reads a file.
  const loaded = parseScenario(parseScenarioJson(written, 'file'), 'file')
  expect(loaded.orders).toHaveLength(2)
  expect(loaded.routes).toEqual(scenario.routes)
})

test('CORS preflights are left out, and a credential an answer echoes reads [redacted]', () => {
  const scenario = importHar(
    har([
      {
        method: 'OPTIONS',
        url: `${API}/me`,
        status: 204,
        requestHeaders: { 'Access-Control-Request-Method': 'GET' },
      },
      { url: `${API}/me`, text: JSON.stringify({ user: 'ann', session: SECRET, [SECRET]: 1 }) },
    ]),
    { name: 'echo' },
  )
  expect(scenario.routes).toEqual([
    {
      method: 'GET',
      path: '/me',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { user: 'ann', session: '[redacted]', '[redacted]': 1 },
    },
  ])
  expect(scenario.description).toContain('skipped 1: 1 preflight')
  expect(scenario.description).toContain('credentials the HAR carries read [redacted] in 2 values')
  expect(stringifyExactJson(scenario)).not.toContain(SECRET)
})

test('--base picks the API in the URLs; no list leaves the scenario without orders', () => {
  const scenario = importHar(har([{ url: 'http://localhost:3000/api/v2/health', text: '{"ok":true}' }]), { name: 'v2', base: '/api/v2/' })
  expect(scenario.orders).toEqual([])
  expect(scenario.routes).toEqual([
    { method: 'GET', path: '/health', status: 200, headers: { 'content-type': 'application/json' }, body: { ok: true } },
  ])
  expect(scenario.description).toContain('no 200 answer of GET /api/v2/store/orders in the HAR, so no orders')
})

test('bad input is a one-line HarImportError', () => {
  const problem = (text: string, base?: string, strict = false) => {
    try {
      importHar(text, { name: 'x', strict, ...(base === undefined ? {} : { base }) })
    } catch (error) {
      expect(error).toBeInstanceOf(HarImportError)
      expect((error as Error).message).not.toContain('\n')
      return (error as Error).message
    }
    throw new Error('expected an error')
  }
  expect(problem('<html>')).toMatch(/^The file is not a HAR: it is not JSON/)
  expect(problem('{"log":{}}')).toBe('The file is not a HAR: it has no log.entries list.')
  expect(problem(har([{ url: 'https://other.test/api/x', text: '{}' }]))).toBe(
    "The HAR has no entry under /v1 (of its 1 entries); give the API's base with --base.",
  )
  const image = har([{ url: `${API}/store/inventory`, mimeType: 'image/png', text: 'iVBORw0KGgo=', encoding: 'base64' }])
  // Nothing could be taken: no scenario, rather than an empty one that differs from the default without a word.
  expect(problem(image)).toBe('Nothing under /v1 could be imported (no list of orders, pet record or route): skipped 1: 1 image.')
  expect(problem(image, undefined, true)).toBe(
    'entry 0 (GET /v1/store/inventory): the body is neither JSON nor text (Content-Type: image/png). Without --strict, such entries are skipped.',
  )
  const notList = har([{ url: `${API}/store/orders`, text: '{"not":"a list"}' }])
  expect(problem(notList)).toContain('skipped 1: 1 bad order list')
  expect(problem(notList, undefined, true)).toContain('entry 0 (GET /v1/store/orders): the list of orders is not a JSON array.')
  expect(problem(har([{ url: `${API}/x`, text: 'eyJ', encoding: 'base64' }]), undefined, true)).toContain(
    'the body is labelled JSON but is not valid JSON',
  )
  expect(problem(har([{ url: `${API}/x`, text: '!!', encoding: 'base64' }]))).toBe(
    'entry 0 (GET /v1/x): content.text is not base64, though content.encoding says so.',
  )
  expect(problem('x'.repeat(MAX_HAR_CHARS + 1))).toContain('the most read is 67108864 (64 MiB)')
  expect(problem(har([{ url: `${API}/x` }]), 'v1')).toContain('--base must be a path starting with "/"')
})

test('import-har writes the file, or exits 2 with one line and writes nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-har-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const input = join(dir, 'session.har')
  writeFileSync(input, har([{ url: `${API}/store/orders`, text: '[{"id":5}]' }]))
  const lines: string[] = []
  const out = { stdout: (text: string) => lines.push(text), stderr: (text: string) => lines.push(`ERR ${text}`) }
  expect(importHarMain([input, '--name', 'session', '--out', join(dir, 'session.json')], out)).toBe(0)
  expect(JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8'))).toMatchObject({
    name: 'session',
    orders: [{ id: 5, status: 'pending' }],
  })
  expect(importHarMain([join(dir, 'missing.har'), '--name', 'session'], out)).toBe(2)
  expect(importHarMain([input], out)).toBe(2)
  expect(lines.slice(-2)).toEqual([
    `ERR Failed to read ${join(dir, 'missing.har')}: no such file.\n`,
    'ERR import-har needs --name <name>, the name of the scenario it writes. Run petstore-sim import-har --help for the options.\n',
  ])
})

test('import-har --help names every flag and the default base, and exits 0', () => {
  const lines: string[] = []
  expect(importHarMain(['--help'], { stdout: (text) => lines.push(text), stderr: (text) => lines.push(text) })).toBe(0)
  expect(lines).toEqual([`${importHarHelpText()}\n`])
  for (const flag of IMPORT_HAR_FLAGS) expect(importHarHelpText()).toContain(`--${flag.name}`)
  expect(importHarHelpText()).toContain('Default /v1.')
})

/** One HAR entry with the request and answer as given, as DevTools writes them. */
function rawEntry(request: Record<string, unknown>, response: Record<string, unknown>) {
  return { startedDateTime: '2026-01-01T00:00:00.000Z', request: { method: 'GET', headers: [], ...request }, response }
}
const jsonAnswer = (body: unknown, headers: Record<string, string> = {}) => ({
  status: 200,
  headers: Object.entries({ 'content-type': 'application/json', ...headers }).map(([name, value]) => ({ name, value })),
  content: { mimeType: 'application/json', text: JSON.stringify(body) },
})
const harOf = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } })

test('8,000 cookies searched for in 8,000 strings: every echo reads [redacted], the rest as it was', () => {
  // At this scale a search per secret (64 million of them) ran past a minute; the one-pass search takes
  // well under a second, so the test's own 5 s timeout is what catches a quadratic search coming back.
  const cookies = Array.from({ length: 8000 }, (_, index) => ({
    name: `c${index}`,
    value: `session-cookie-${index}-${(index * 7919).toString(36)}`,
  }))
  const strings = Array.from({ length: 8000 }, (_, index) =>
    index % 4 === 0
      ? `echo of ${cookies[(index * 13) % 8000]?.value} here`
      : `plain text ${index} with nothing secret, ${'padding '.repeat(16)}`,
  )
  // Two routes, as a route's body holds at most 1 MiB.
  const text = harOf([
    rawEntry({ url: `${API}/echo/1`, cookies }, jsonAnswer(strings.slice(0, 4000))),
    rawEntry({ url: `${API}/echo/2` }, jsonAnswer(strings.slice(4000))),
  ])
  expect(text.length).toBeGreaterThan(1_400_000)
  const scenario = importHar(text, { name: 'many' })
  const body = scenario.routes?.flatMap((route) => route.body as string[])
  expect(body).toHaveLength(8000)
  expect(body).toEqual(strings.map((each, index) => (index % 4 === 0 ? 'echo of [redacted] here' : each)))
  expect(scenario.description).toContain('credentials the HAR carries read [redacted] in 2000 values')
})

test('every credential shape is redacted: credential headers, cookies, JSON and form fields at any depth, query keys, and their echoes', () => {
  const token = 'x-auth-token-value-1234'
  const apiKey = 'api-key-value-5678'
  const queryKey = 'query-api-key-9012'
  const password = 'hunter2-password'
  const refreshSent = 'refresh-sent-3456'
  const secrets = [token, apiKey, queryKey, password, refreshSent, 'form-secret-7890', 'new-access-token', 'new-refresh-token', 'id-tok']
  const text = harOf([
    rawEntry(
      {
        method: 'POST',
        url: `${API}/login?api_key=${queryKey}&page=2`,
        headers: [
          // HTTP/2's pseudo-header names the host, which the URLs below keep.
          { name: ':authority', value: 'api.example.test' },
          { name: 'X-Auth-Token', value: token },
          { name: 'X-Api-Key', value: apiKey },
        ],
        postData: { mimeType: 'application/json', text: JSON.stringify({ user: { name: 'ann', password }, refresh_token: refreshSent }) },
      },
      jsonAnswer(
        {
          access_token: 'new-access-token',
          refresh_token: 'new-refresh-token',
          // Short, so not searched for elsewhere; its field name is enough here.
          id_token: 'id-tok',
          token_type: 'Bearer',
          expires_in: 3600,
          account: { keys: [{ api_key: 'k1' }], password: 'pw' },
        },
        { 'x-auth-token': 'answer-token-0000', 'x-session-id': 's1', 'www-authenticate': 'Bearer realm="api"', 'x-request-id': 'r-1' },
      ),
    ),
    rawEntry(
      {
        method: 'POST',
        url: `${API}/token`,
        postData: { mimeType: 'application/x-www-form-urlencoded', text: 'grant_type=password&client_secret=form-secret-7890' },
      },
      jsonAnswer({ ok: true }),
    ),
    rawEntry(
      { url: `${API}/echo` },
      jsonAnswer(
        {
          headers: { 'x-api-key': apiKey, seen: `token ${token}` },
          query: queryKey,
          said: [`password was ${password}`, `refreshed with ${refreshSent}`, 'client form-secret-7890'],
          next: 'https://api.example.test/v1/echo?access_token=abcdef&page=2',
        },
        { 'x-echo': `key=${apiKey}` },
      ),
    ),
  ])
  const scenario = importHar(text, { name: 'shapes' })
  const written = stringifyExactJson(scenario)
  for (const secret of [...secrets, 'answer-token-0000', 'abcdef']) expect(written).not.toContain(secret)
  const [login, , echo] = scenario.routes ?? []
  expect(login?.headers).toEqual({
    'content-type': 'application/json',
    'x-auth-token': '[redacted]',
    'x-session-id': '[redacted]',
    // A challenge carries no credential: the app under test may read it.
    'www-authenticate': 'Bearer realm="api"',
    'x-request-id': 'r-1',
  })
  expect(login?.body).toEqual({
    access_token: '[redacted]',
    refresh_token: '[redacted]',
    id_token: '[redacted]',
    token_type: 'Bearer',
    expires_in: 3600,
    account: { keys: [{ api_key: '[redacted]' }], password: '[redacted]' },
  })
  expect(echo?.headers).toEqual({ 'content-type': 'application/json', 'x-echo': 'key=[redacted]' })
  expect(echo?.body).toEqual({
    headers: { 'x-api-key': '[redacted]', seen: 'token [redacted]' },
    query: '[redacted]',
    said: ['password was [redacted]', 'refreshed with [redacted]', 'client [redacted]'],
    next: 'https://api.example.test/v1/echo?access_token=[redacted]&page=2',
  })
})

describe.skipIf(process.platform !== 'linux')('readHarFile', () => {
  test('counts the bytes as it reads: a file that says it is empty (/proc) is refused past the bound', () => {
    expect(() => readHarFile('/proc/self/status', 16)).toThrow(
      new HarImportError('/proc/self/status is over 16 bytes, the largest HAR read.'),
    )
    expect(readHarFile('/proc/self/status')).toMatch(/^Name:/)
  })

  test('refuses a device, a folder and a file over the bound, each in one line, before reading it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-har-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const big = join(dir, 'big.har')
    writeFileSync(big, 'x'.repeat(100))
    expect(() => readHarFile('/dev/zero')).toThrow(new HarImportError('Failed to read /dev/zero: it is a device, not a regular file.'))
    expect(() => readHarFile(dir)).toThrow(new HarImportError(`Failed to read ${dir}: it is a folder, not a regular file.`))
    expect(() => readHarFile(big, 64)).toThrow(new HarImportError(`${big} is 100 bytes; the largest HAR read is 64 bytes.`))
    expect(readHarFile(big, 100)).toBe('x'.repeat(100))
  })
})
