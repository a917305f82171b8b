// Route headers Node would refuse to send (issue 54, finding 2): a value such as "€" or U+2028 used to
// load and make the first request to its route throw ERR_INVALID_CHAR. Each is now refused when the
// scenario loads, in one line naming routes[N].headers.<name>: in process, by the server at start, and
// in a scenarios folder, where the file is listed with its error while the server keeps answering.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test, vi } from 'vitest'
import { createSimulator, isScenarioError, type Scenario } from '../src/index.js'
import { KEY } from './support/harness.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in set-up, not in the first test that calls /__sim.
useAdminApi()

const API = 'https://api.petstore.example/v1'
const auth = { Authorization: `Bearer ${KEY}` }
const INVENTORY = { method: 'GET', path: '/store/inventory', status: 200, body: { available: 3 } }
const STATUS = { method: 'GET', path: '/status', status: 200, auth: false, body: { up: true } }

/** A scenario whose third route sets this one header. */
function withHeader(name: string, value: string, scenarioName = 'hostile-header'): Scenario {
  const route = { method: 'GET', path: '/note', status: 200, headers: { 'Cache-Control': 'no-store', [name]: value }, body: { note: 1 } }
  return { name: scenarioName, description: 'A route with a header.', apiKeys: [KEY], routes: [INVENTORY, STATUS, route] } as Scenario
}

/** What a Node server could not send, and what the simulator answers CORS and framing with itself. */
const HOSTILE: [string, string, RegExp][] = [
  ['x-note', '\u20ac 5', /must be a header value Node can send .*got U\+20AC$/],
  ['x-note', 'one\u2028two', /must be a header value Node can send .*got U\+2028$/],
  ['x-note', 'start\u0001', /must be a header value Node can send .*got U\+0001$/],
  ['x-note', 'del\u007f', /must be a header value Node can send .*got U\+007F$/],
  ['Access-Control-Allow-Origin', '*', /is refused: the simulator answers CORS itself/],
  ['Connection', 'close', /is refused: a hop-by-hop header/],
  ['Transfer-Encoding', 'chunked', /is refused: a hop-by-hop header/],
  ['Content-Encoding', 'gzip', /is refused: .*unencoded/],
]

/** Line breaks, and the hostile values' own characters: a message shows none (it is one line, whatever a log does with them). */
const UNSHOWN = ['\n', '\r', '\u2028', '\u2029', '\u0001', '\u007f', '\u20ac']

/** What loading throws, as a caller meets it. */
function refusal(load: () => unknown): { message: string; field: string | undefined } {
  try {
    load()
  } catch (error) {
    if (isScenarioError(error)) return { message: error.message, field: error.field }
    throw error
  }
  throw new Error('expected the scenario to be refused')
}

function temporaryFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-routes-hostile-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

describe('in process (createSimulator)', () => {
  test.each(HOSTILE)('a route header %s: %j is refused in one line naming it', (name, value, why) => {
    const { message, field } = refusal(() => createSimulator({ scenario: withHeader(name, value) }).close())
    expect(field).toBe(`routes[2].headers.${name}`)
    expect(message).toMatch(new RegExp(`^Failed to load scenario "hostile-header": routes\\[2\\]\\.headers\\.${name} `))
    expect(message).toMatch(new RegExp(why.source.replace(/\$$/, '\\.$')))
    expect(UNSHOWN.filter((character) => message.includes(character))).toEqual([])
  })

  test('a reset to such a scenario is refused and the routes loaded go on answering', async () => {
    const sim = createSimulator({ scenario: withHeader('X-Note', 'fine') })
    onTestFinished(() => sim.close())
    const { field } = refusal(() => sim.reset(withHeader('x-note', '\u20ac')))
    expect(field).toBe('routes[2].headers.x-note')
    const note = await sim.fetch(`${API}/note`, { headers: auth })
    expect([note.status, note.headers.get('X-Note'), await note.json()]).toEqual([200, 'fine', { note: 1 }])
  })
})

/** A scenario whose second route names this query. */
function withQuery(query: unknown): Scenario {
  const route = { method: 'GET', path: '/search', status: 200, query, body: { found: 1 } }
  return { name: 'hostile-query', description: 'A route with a query.', apiKeys: [KEY], routes: [INVENTORY, route] } as Scenario
}

/** A huge value: never echoed (a message that quotes a value shows 80 characters of it at most). */
const HUGE = `token-${'x'.repeat(1_000_000)}`

const HOSTILE_QUERIES: [string, unknown, string, RegExp][] = [
  [
    'a huge query object',
    Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`p${i}`, 'v'])),
    'routes[1].query',
    /names 100000 parameters; a route may name at most 32$/,
  ],
  ['a huge value', { q: HUGE }, 'routes[1].query.q', /must be at most 2048 characters, got 1000006$/],
  ['a huge name', { [HUGE]: 'v' }, `routes[1].query.${HUGE.slice(0, 80)}…`, /must be a name of 1 to 256 characters$/],
  ['an empty name', { '': 'v' }, 'routes[1].query', /routes\[1\]\.query has an empty parameter name; a name is 1 to 256 characters$/],
  [
    'a line break in a value',
    { q: 'a\r\nSet-Cookie: x' },
    'routes[1].query.q',
    /must hold no control characters \(U\+0000 to U\+001F, U\+007F to U\+009F\)$/,
  ],
  ['a control character in a name', { 'q\u0000': 'v' }, 'routes[1].query.q\\u0000', /must hold no control characters/],
  ['a C1 control in a value', { q: 'a\u0085b' }, 'routes[1].query.q', /must hold no control characters/],
  ['a number value', { q: 5 }, 'routes[1].query.q', /must be a string, got 5$/],
  ['an object value', { q: { nested: HUGE } }, 'routes[1].query.q', /must be a string, got an instance of Object$/],
  ['a null value', { q: null }, 'routes[1].query.q', /must be a string, got null$/],
  ['__proto__ as a name', JSON.parse('{"__proto__": "x"}'), 'routes[1].query.__proto__', /is refused: "__proto__" is a name/],
  ['a string', 'q=cat', 'routes[1].query', /must be an object of query parameter names to strings, got the string "q=cat"$/],
  ['an array', [['q', 'cat']], 'routes[1].query', /must be an object of query parameter names to strings, got an array$/],
]

describe('a route query (issue 57)', () => {
  test.each(HOSTILE_QUERIES)('%s is refused in one line naming the field, never echoing the value', (_, query, field, why) => {
    const { message, field: at } = refusal(() => createSimulator({ scenario: withQuery(query) }).close())
    expect(at).toBe(field)
    expect(message).toMatch(new RegExp(why.source.replace(/\$$/, '\\.$')))
    expect(message.length).toBeLessThan(400)
    expect(message).not.toContain('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')
    expect(UNSHOWN.filter((character) => message.includes(character))).toEqual([])
  })

  test('a file holding "__proto__" as a name is refused, and no object gains a prototype from it', () => {
    const file = join(temporaryFolder(), 'proto.json')
    writeFileSync(file, JSON.stringify(withQuery({ q: 'x' })).replace('"q":"x"', '"__proto__":{"polluted":"yes"}'))
    expect(refusal(() => createSimulator({ scenario: file }).close()).field).toBe('routes[1].query.__proto__')
    expect(({} as { polluted?: string }).polluted).toBeUndefined()
  })

  test("a request's huge or repeated query is read once and answered by its route", async () => {
    const sim = createSimulator({ scenario: withQuery({ q: 'cat' }) })
    onTestFinished(() => sim.close())
    const many = `${Array.from({ length: 1500 }, (_, i) => `q=${i}`).join('&')}&q=cat`
    const found = await sim.fetch(`${API}/search?${many}`, { headers: auth })
    expect([found.status, await found.json()]).toEqual([200, { found: 1 }])
    const missed = await sim.fetch(`${API}/search?q=${'%00'.repeat(2000)}`, { headers: auth })
    expect(missed.status).toBe(404)
    expect((await missed.text()).length).toBeLessThan(1000)
  })
})

describe('over HTTP (the standalone server)', () => {
  const serveApp = useAppServers()
  const serve: typeof serveApp = async (...args) => {
    const served = await serveApp(...args)
    onTestFinished(() => served.sim.close())
    return served
  }

  test.each(HOSTILE)(
    'a scenario file with a route header %s: %j is refused at start in one line naming the file and the header',
    async (name, value) => {
      const file = join(temporaryFolder(), 'hostile-header.json')
      writeFileSync(file, JSON.stringify(withHeader(name, value)))
      const refused = await serve({ scenario: file }).then(
        () => '',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      )
      expect(refused).toContain('hostile-header.json')
      expect(refused).toContain(`routes[2].headers.${name} `)
      expect(UNSHOWN.filter((character) => refused.includes(character))).toEqual([])
    },
  )

  test('a folder file with such a route is listed with its error, refused by a reset, and the server keeps answering', async () => {
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    onTestFinished(() => warnings.mockRestore())
    const dir = temporaryFolder()
    writeFileSync(join(dir, 'euro-note.json'), JSON.stringify(withHeader('x-note', '\u20ac 5', 'euro-note')))
    writeFileSync(join(dir, 'cors-note.json'), JSON.stringify(withHeader('Access-Control-Allow-Origin', '*', 'cors-note')))
    writeFileSync(join(dir, 'fine-note.json'), JSON.stringify(withHeader('X-Note', 'caf\u00e9', 'fine-note')))
    const { origin } = await serve({ scenariosDir: dir, scenario: 'pending' })

    const list = (await (await fetch(`${origin}/__sim/scenarios`)).json()) as { name: string; source?: string; error?: string | null }[]
    const folder = Object.fromEntries(list.filter((entry) => entry.source === 'folder').map((entry) => [entry.name, entry.error]))
    expect(folder).toEqual({
      'cors-note': expect.stringMatching(
        /^routes\[2\]\.headers\.Access-Control-Allow-Origin is refused: the simulator answers CORS itself/,
      ),
      'euro-note': expect.stringMatching(/^routes\[2\]\.headers\.x-note must be a header value Node can send .*U\+20AC/),
      'fine-note': null,
    })

    const reset = await fetch(`${origin}/__sim/reset`, { method: 'POST', body: JSON.stringify({ scenario: 'euro-note' }) })
    expect(reset.status).toBe(409)
    expect(await reset.json()).toMatchObject({
      code: 'scenario_file_invalid',
      message: expect.stringContaining('routes[2].headers.x-note'),
    })
    expect((await fetch(`${origin}/v1/store/orders`, { headers: auth })).status).toBe(200)

    // The folder's other scenarios work, their routes' headers sent as written (latin1 as Node writes it).
    expect((await fetch(`${origin}/__sim/reset`, { method: 'POST', body: JSON.stringify({ scenario: 'fine-note' }) })).status).toBe(200)
    const note = await fetch(`${origin}/v1/note`, { headers: auth })
    expect([note.status, note.headers.get('X-Note'), await note.json()]).toEqual([200, 'caf\u00e9', { note: 1 }])
    // Each file that does not load is said once, on one line, naming the header.
    const said = warnings.mock.calls.map(([line]) => String(line))
    expect(said.filter((line) => line.includes('routes[2].headers.'))).toHaveLength(2)
    for (const line of said) expect(UNSHOWN.filter((character) => line.includes(character))).toEqual([])
  })
})
