import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { stringifyExactJson } from '../../core/exact-json.js'
import { HarImportError } from './har-entries.js'
import { importHar, importHarReport } from './import-har.js'
import { importHarHelpText, importHarMain } from './import-har-main.js'

// import-har imports what it can: what it skips, counted in one line, and --strict's all or nothing.

const API = 'https://api.example.test/v1'
const TOKEN = 'sk-live-browser-token-0123456789'

interface Entry {
  method?: string
  url: string
  status?: number
  /** The answer's body, as text, or base64 with `base64`. */
  text?: string
  base64?: boolean
  /** The answer's Content-Type header; `mimeType` alone when `header` is false. */
  type?: string
  header?: boolean
  requestHeaders?: Record<string, string>
}

/** A HAR of `entries`, each request with the browser's bearer token. */
function har(entries: readonly Entry[]): string {
  return JSON.stringify({
    log: {
      version: '1.2',
      entries: entries.map((entry) => ({
        request: {
          method: entry.method ?? 'GET',
          url: entry.url,
          headers: Object.entries({ Authorization: `Bearer ${TOKEN}`, ...entry.requestHeaders }).map(([name, value]) => ({ name, value })),
        },
        response: {
          status: entry.status ?? 200,
          headers: entry.header === false ? [] : [{ name: 'Content-Type', value: entry.type ?? 'application/json' }],
          content: {
            mimeType: entry.type ?? 'application/json',
            ...(entry.text === undefined ? {} : { text: entry.text }),
            ...(entry.base64 === true ? { encoding: 'base64' } : {}),
          },
        },
      })),
    },
  })
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

test('one rule with --record: text kept under its type, 5xx, images, binary and bad JSON skipped, each counted in one line', () => {
  const report = importHarReport(
    har([
      { url: `${API}/version`, type: 'text/plain; charset=utf-8', text: 'petstore 1.4.2\n' },
      // Only the mimeType says the type: the route still answers under it.
      { url: `${API}/page`, type: 'text/html', header: false, text: '<p>hi</p>' },
      { url: `${API}/pets/1/photo`, type: 'image/png', text: PNG, base64: true },
      { url: `${API}/export`, type: 'application/octet-stream', text: 'AAEC', base64: true },
      { url: `${API}/latin`, type: 'text/plain', text: '/w==', base64: true },
      { url: `${API}/stats`, status: 503, text: '{"code":"unavailable"}' },
      { url: `${API}/broken`, text: '{"a":' },
      { url: `${API}/inventory`, text: '{"available":3}' },
    ]),
    { name: 'rule' },
  )
  expect(report.scenario.routes).toEqual([
    { method: 'GET', path: '/version', status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'petstore 1.4.2\n' },
    { method: 'GET', path: '/page', status: 200, headers: { 'content-type': 'text/html' }, body: '<p>hi</p>' },
    { method: 'GET', path: '/inventory', status: 200, headers: { 'content-type': 'application/json' }, body: { available: 3 } },
  ])
  expect(report.skipped).toBe('skipped 5: 2 binary, 1 not JSON, 1 image, 1 server error')
  expect(report.scenario.description).toContain('; skipped 5: 2 binary, 1 not JSON, 1 image, 1 server error')
  expect(report.traffic[0]).toBe('The traffic showed none of the 12 documented outcomes; 8 answers beyond the spec.')
})

test('spec operations are never routes: the last list and each pet record are taken, the rest skipped and named by outcome', () => {
  const report = importHarReport(
    har([
      { url: `${API}/store/orders`, text: '[{"id":1}]' },
      { method: 'DELETE', url: `${API}/store/orders/1`, status: 204 },
      { method: 'DELETE', url: `${API}/store/orders/2`, status: 409, text: '{"code":"order_already_shipped","message":"m","status":409}' },
      { url: `${API}/store/orders`, text: '[{"id":2}]' },
      { url: `${API}/pets/7`, text: 'not json', type: 'text/plain' },
    ]),
    { name: 'ops' },
  )
  expect(report.scenario.orders).toEqual([{ id: 2, status: 'pending' }])
  expect(report.scenario.routes).toBeUndefined()
  expect(report.skipped).toBe('skipped 4: 3 spec operations, 1 not JSON')
  expect(report.traffic[0]).toMatch(/^The traffic showed 4 of the 12 documented outcomes: listOrders\.200 \(2\), cancelOrder\.204 \(1\)/)
  expect(report.traffic.join('\n')).toContain('cancelOrder.409.order_already_shipped (1)')
})

test("queries: each answer's own, credentials left out, a name given twice not held, a later answer to the same query repeated", () => {
  const text = har([
    { url: `${API}/search?q=cat`, text: '["Tom"]' },
    { url: `${API}/search?q=rex`, text: '["Rex"]' },
    { url: `${API}/search?q=cat`, text: '["Tom again"]' },
    { url: `${API}/promotions?region=eu&api_key=sk-live-query-key-42`, text: '{"codes":["SPRING"]}' },
    { url: `${API}/tags?tag=a&tag=b`, text: '[]' },
    // The value is the browser's token, whatever the parameter's name: left out, never written.
    { url: `${API}/next?cursor=${TOKEN}&page=2`, text: '{}' },
  ])
  const report = importHarReport(text, { name: 'queries' })
  expect(report.scenario.routes?.map((route) => [route.path, route.query])).toEqual([
    ['/search', { q: 'cat' }],
    ['/search', { q: 'rex' }],
    ['/promotions', { region: 'eu' }],
    ['/next', { page: '2' }],
  ])
  expect(report.scenario.routes?.[0]?.body).toEqual(['Tom'])
  // Left out, the repeated name would make /tags answer every other query with this one answer.
  expect(report.skipped).toBe('skipped 2: 1 query not held, 1 repeated')
  const written = stringifyExactJson(report.scenario)
  for (const secret of [TOKEN, 'sk-live-query-key-42']) expect(written).not.toContain(secret)
  const tooMany = Array.from({ length: 33 }, (_, index) => `p${index}=1`).join('&')
  const large = importHarReport(
    har([
      { url: `${API}/a?${tooMany}`, text: '1' },
      { url: `${API}/b`, text: '2' },
    ]),
    { name: 'large' },
  )
  expect(large.skipped).toBe('skipped 1: 1 query too large')
})

test('--strict refuses the first answer the scenario cannot hold, in the HAR order; not preflights, 304s, repeats, spec operations', () => {
  const held = [
    { url: 'https://cdn.example.test/app.js', type: 'text/javascript', text: 'x' },
    { method: 'OPTIONS', url: `${API}/x`, status: 204, requestHeaders: { 'Access-Control-Request-Method': 'GET' } },
    { url: `${API}/x`, status: 304 },
    { url: `${API}/y`, status: 0 },
    { url: `${API}/x`, text: '1' },
    { url: `${API}/x`, text: '2' },
    { method: 'DELETE', url: `${API}/store/orders/1`, status: 404, text: '{"code":"order_not_found"}' },
  ]
  const strict = importHarReport(har(held), { name: 'strict', strict: true })
  expect(strict.scenario.routes).toHaveLength(1)
  expect(strict.skipped).toBe('skipped 6: 1 spec operation, 1 repeated, 1 cached, 1 preflight, 1 no answer, 1 outside the base')
  const refused = (entries: Entry[]) => {
    try {
      importHar(har(entries), { name: 'strict', strict: true })
    } catch (error) {
      expect(error).toBeInstanceOf(HarImportError)
      return (error as Error).message
    }
    throw new Error('expected a refusal')
  }
  // The pet record is read after the loop, yet the first entry is the one named.
  expect(refused([...held, { url: `${API}/pets/1`, type: 'text/plain', text: 'x' }, { url: `${API}/z`, status: 500 }])).toBe(
    'entry 7 (GET /v1/pets/1): the body is not JSON (text/plain). Without --strict, such entries are skipped.',
  )
  expect(
    refused([
      { url: `${API}/z`, status: 500 },
      { url: `${API}/pets/1`, type: 'text/plain', text: 'x' },
    ]),
  ).toBe('entry 0 (GET /v1/z): status 500 is not recorded (500 and above). Without --strict, such entries are skipped.')
})

test('20,000 skipped entries are still one short line; routes past the limit are skipped, not an error', () => {
  const images = Array.from({ length: 20_000 }, (_, index) => ({ url: `${API}/img/${index}`, type: 'image/png', text: PNG, base64: true }))
  const report = importHarReport(har([...images, { url: `${API}/ok`, text: '1' }]), { name: 'many' })
  expect(report.skipped).toBe('skipped 20000: 20000 images')
  const routes = Array.from({ length: 1001 }, (_, index) => ({ url: `${API}/r/${index}`, text: '1' }))
  expect(importHarReport(har(routes), { name: 'limit' }).skipped).toBe('skipped 1: 1 over the route limit')
})

/** Runs importHarMain, each output line kept with its stream. */
function run(argv: string[]) {
  const lines: string[] = []
  const code = importHarMain(argv, { stdout: (text) => lines.push(`OUT ${text}`), stderr: (text) => lines.push(`ERR ${text}`) })
  return { code, lines }
}

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-har-skips-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

test('import-har: the file written, then the skipped line and the traffic lines on stderr; control characters escaped', () => {
  const dir = folder()
  const input = join(dir, 'session.har')
  const type = 'image/png\u001b[2J\u0007'
  writeFileSync(
    input,
    har([
      { url: `${API}/ok`, text: '1' },
      { url: `${API}/img`, type, text: PNG, base64: true },
      { url: `${API}/bell`, type: 'text/plain\u0007', text: 'ding' },
    ]),
  )
  const out = join(dir, 'out.json')
  const { code, lines } = run([input, '--name', 'session', '--out', out])
  expect(code).toBe(0)
  expect(lines[0]).toMatch(/^OUT Wrote .*out\.json: Imported from a HAR/)
  expect(lines.slice(1, 3)).toEqual([
    'ERR skipped 2: 1 image, 1 not a route\n',
    'ERR The traffic showed none of the 12 documented outcomes; 3 answers beyond the spec.\n',
  ])
  expect(lines).toHaveLength(3)
  const strict = run([input, '--name', 'session', '--out', join(dir, 'strict.json'), '--strict'])
  expect(strict.code).toBe(2)
  expect(strict.lines).toEqual([
    'ERR entry 1 (GET /v1/img): the body is neither JSON nor text (Content-Type: image/png\\x1b[2j\\x07). Without --strict, such entries are skipped.\n',
  ])
  expect(existsSync(join(dir, 'strict.json'))).toBe(false)
  // A refused write is its one line, nothing more.
  const refused = run([input, '--name', 'session', '--out', join(dir, 'missing', 'out.json')])
  expect(refused).toEqual({ code: 2, lines: [`ERR Failed to write ${join(dir, 'missing', 'out.json')}: no such folder.\n`] })
  expect(JSON.parse(readFileSync(out, 'utf8')).routes).toHaveLength(1)
})

test('import-har: a HAR whose entries are all skipped is one line, exit 2, and no file', () => {
  const dir = folder()
  const input = join(dir, 'session.har')
  writeFileSync(
    input,
    har([
      { url: `${API}/stats`, status: 503, text: '{}' },
      { method: 'DELETE', url: `${API}/store/orders/1`, status: 204 },
    ]),
  )
  const out = join(dir, 'out.json')
  expect(run([input, '--name', 'session', '--out', out])).toEqual({
    code: 2,
    lines: [
      'ERR Nothing under /v1 could be imported (no list of orders, pet record or route): skipped 2: 1 server error, 1 spec operation.\n',
    ],
  })
  expect(existsSync(out)).toBe(false)
})

test('import-har --help tells of the summary line and --strict', () => {
  const help = importHarHelpText()
  expect(help).toContain('--strict')
  expect(help).toContain('skipped 3: 1 image')
  expect(help).not.toContain('JSON bodies only')
})

test('a pet record a scenario cannot hold is one entry skipped, not the import failed; --strict refuses it', () => {
  const text = har([
    { url: `${API}/pets/1`, text: '{"weight":1e400}' },
    { url: `${API}/store/inventory`, text: '{"available":3}' },
  ])
  const report = importHarReport(text, { name: 'pets' })
  expect(report.skipped).toBe('skipped 1: 1 bad pet record')
  expect(report.scenario.pets).toBeUndefined()
  expect(report.scenario.routes).toHaveLength(1)
  expect(() => importHarReport(text, { name: 'pets', strict: true })).toThrow(
    /^entry 0 \(GET \/v1\/pets\/1\): pets\.1\.weight must be a JSON value, got Infinity\. Without --strict/,
  )
})

test("the traffic lines quote the deployment's values with the HAR's credentials redacted", () => {
  const secret = 'sess-0a1b2c3d4e5f6a7b'
  const text = JSON.stringify({
    log: {
      entries: [
        {
          request: { method: 'GET', url: `${API}/store/orders`, headers: [{ name: 'Cookie', value: `sid=${secret}` }] },
          response: {
            status: 401,
            headers: [{ name: 'Content-Type', value: 'application/json' }],
            content: { mimeType: 'application/json', text: JSON.stringify({ code: secret, message: 'no', status: 401 }) },
          },
        },
        {
          request: { method: 'GET', url: `${API}/store/inventory`, headers: [] },
          response: { status: 200, headers: [], content: { mimeType: 'application/json', text: '{}' } },
        },
      ],
    },
  })
  const report = importHarReport(text, { name: 'secret-lines' })
  expect(report.traffic.join('\n')).toContain('listOrders.401')
  expect(report.traffic.join('\n')).not.toContain(secret)
  expect(report.traffic.join('\n')).toContain('[redacted]')
})
