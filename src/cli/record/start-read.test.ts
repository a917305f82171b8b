// The server's start read (--proxy --record) and what a save says, in process: hostile answers from the
// deployment, the key never shown, and the server's onSaved hook told of saves only.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { closedPort, useStandIns } from '../../../test/support/stand-in.js'
import { stringifyExactJson } from '../../core/exact-json.js'
import { startSimulatorServer } from '../../transports/standalone/start-server.js'
import { CliUsageError } from '../usage-error.js'
import { readDeploymentAtStart, routeKeys, savedTrafficLines } from './start-read.js'

const KEY = 'deployment-key-Vq83nR0tLx5w'
const startStandIn = useStandIns()
const dir = mkdtempSync(join(tmpdir(), 'petstore-start-read-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What `readDeploymentAtStart` is refused with: its one line. */
async function refusal(target: string, key?: string): Promise<string> {
  const error = await readDeploymentAtStart({ target, ...(key === undefined ? {} : { key }) }, false, 'test').then(
    () => undefined,
    (failure: unknown) => failure,
  )
  expect(error).toBeInstanceOf(CliUsageError)
  const message = (error as Error).message
  expect(message.split('\n')).toHaveLength(1)
  expect(message).not.toContain(KEY)
  return message
}

test('the deployment list becomes the scenario; an echoed key reads [key]; the answers are kept for the summary', async () => {
  const standIn = await startStandIn((seen, res) => {
    if (seen.headers.authorization !== `Bearer ${KEY}`) return void res.writeHead(401).end()
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify([{ id: 5, complete: true }]))
  })
  const read = await readDeploymentAtStart({ target: `${standIn.origin}/v1/`, key: KEY, timeoutSeconds: 5 }, false, 'test')
  expect(read.scenario).toMatchObject({ name: 'deployment', orders: [{ id: 5, complete: true, status: 'shipped' }] })
  expect(read.origin).toBe(`1 order read from ${standIn.origin}/v1 at start`)
  expect(read.answers).toMatchObject([{ method: 'GET', path: '/store/orders', status: 200 }])
  expect(standIn.seen.map((seen) => seen.url)).toEqual(['/v1/store/orders'])
})

test('a refused read names the target and what to do, in one line, never the key or a raw control character', async () => {
  const standIn = await startStandIn((seen, res) => {
    res
      .writeHead(401, { 'Content-Type': 'application/json' })
      // A careless service echoes the key it was sent.
      .end(
        JSON.stringify({ code: `bad\u001b[31m${(seen.headers.authorization ?? '').slice('Bearer '.length)}`, message: 'no', status: 401 }),
      )
  })
  const target = `${standIn.origin}/v1`
  const withKey = await refusal(target, KEY)
  expect(withKey).toMatch(
    /^Failed to start from the deployment's orders: GET http:\/\/127\.0\.0\.1:\d+\/v1\/store\/orders answered 401 "bad\\u001b\[31m\[key\]"/,
  )
  expect(withKey).toContain('Check --proxy-key (or PETSTORE_SIM_PROXY_KEY), or start from a scenario with --scenario <name|path>')
  expect(withKey).not.toContain('\u001b')
  expect(await refusal(target)).toContain('Give its key with --proxy-key (or PETSTORE_SIM_PROXY_KEY)')
  const gone = `http://127.0.0.1:${await closedPort()}/v1`
  expect(await refusal(gone, KEY)).toMatch(
    new RegExp(`^Failed to start from the deployment's orders: Failed to reach ${gone.replace(/\./g, '\\.')}: .* Check --proxy, or`),
  )
})

test("a save's lines count the start read's answers and the routes recorded since, escaped and without the key", () => {
  const started = {
    answers: [
      {
        method: 'GET',
        path: '/store/orders',
        status: 200,
        headers: [['content-type', 'application/json']] as [string, string][],
        body: '[]',
      },
    ],
    routes: routeKeys([{ method: 'GET', path: '/version' }]),
  }
  const saved = stringifyExactJson({
    name: 'from-staging',
    orders: [{ id: 1 }],
    routes: [
      { method: 'GET', path: '/version', status: 200 },
      { method: 'GET', path: '/search', query: { q: 'cat' }, status: 200, body: { q: 'cat' } },
      { method: 'GET', path: '/search', query: { q: 'rex' }, status: 200, headers: { 'Content-Type': 'text/plain' }, body: `rex ${KEY}` },
    ],
  })
  const lines = savedTrafficLines(`/tmp/a\u0007b/from-staging.json`, saved, started, KEY)
  expect(lines[0]).toBe('Saved /tmp/a\\x07b/from-staging.json: 1 order, 3 routes.')
  expect(lines[1]).toMatch(
    /^The traffic showed 1 of the \d+ documented outcomes: listOrders\.200\.empty \(1\); 2 answers beyond the spec\.$/,
  )
  expect(lines.join('\n')).not.toContain(KEY)
})

test('onSaved is told of each save through the admin API, by name; a refused save tells nothing; what it throws is reported', async () => {
  const told: string[] = []
  const reported: unknown[] = []
  const server = await startSimulatorServer({
    port: 0,
    scenario: 'pending',
    scenariosDir: mkdtempSync(join(dir, 'folder-')),
    onSaved: ({ name }) => {
      told.push(name)
      if (name === 'boom') throw new Error('the hook failed')
    },
    onError: (error) => reported.push(error),
  })
  try {
    const save = (body: object) =>
      fetch(`http://127.0.0.1:${server.port}/__sim/scenarios`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect((await save({ name: 'first' })).status).toBe(201)
    expect((await save({ name: 'first' })).status).toBe(409)
    expect((await save({ name: 'first', overwrite: true })).status).toBe(200)
    expect((await save({ name: 'Bad Name' })).status).toBe(400)
    expect((await save({ name: 'boom' })).status).toBe(201)
    // The hook runs once the answer is sent: a request after it sees every hook done.
    await fetch(`http://127.0.0.1:${server.port}/__sim/state`)
    expect(told).toEqual(['first', 'first', 'boom'])
    expect(reported).toMatchObject([{ message: 'the hook failed' }])
  } finally {
    await server.close()
  }
})
