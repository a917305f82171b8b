import { request } from 'node:http'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, onTestFinished, test, vi } from 'vitest'
import { FLAGS, VERIFY_FLAGS } from '../src/cli/flags.js'
import { createSimulator } from '../src/index.js'
import { CLI, freePort, ROOT, useProcesses, whenReady } from './support/cli-process.js'
import { KEY } from './support/harness.js'

// Each test starts the built CLI as a process: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

const run = useProcesses()
const cli = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [CLI, ...args], env)
const auth = { Authorization: `Bearer ${KEY}` }

beforeAll(() => {
  expect(existsSync(CLI), 'run "npm run build" first (npm test does)').toBe(true)
})

function expectOneCleanErrorLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trimEnd().split('\n')
  expect(lines, stderr).toHaveLength(1)
  expect(lines[0]).toMatch(pattern)
  expect(stderr).not.toMatch(/^\s+at /m)
}

describe('starting', () => {
  test('prints one ready line with the URL, the scenario and the accepted key, then serves', async () => {
    const server = await whenReady(cli(['--port', '0']))
    expect(server.stdout()).toMatch(
      /^Petstore simulator ready at http:\/\/127\.0\.0\.1:\d+\/v1 \(scenario: default, key: petstore-test-key\)\n$/,
    )
    const response = await fetch(`${server.url}/store/orders`, { headers: auth })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe(await (await createListFromSimulator()).text())
  })

  test.each([
    ['pending', 'DELETE', '/store/orders/1', 204, 'key: petstore-test-key'],
    ['shipped', 'DELETE', '/store/orders/1', 409, 'key: petstore-test-key'],
    ['missing', 'DELETE', '/store/orders/1', 404, 'key: petstore-test-key'],
    ['bad-key', 'GET', '/store/orders', 401, 'key: none accepted'],
    ['default', 'GET', '/store/orders', 200, 'key: petstore-test-key'],
  ])('npm start -- --port P --scenario %s serves that scenario', async (scenario, method, path, status, keys) => {
    const port = await freePort()
    const server = await whenReady(run('npm', ['start', '--silent', '--', '--port', String(port), '--scenario', scenario]))
    expect(server.url).toBe(`http://127.0.0.1:${port}/v1`)
    expect(server.scenario).toBe(scenario)
    expect(server.keys).toBe(keys)
    expect((await fetch(`${server.url}${path}`, { method, headers: auth })).status).toBe(status)
  })

  test('--ship-after (or PETSTORE_SIM_SHIP_AFTER) ships pending orders on their own, on a clock the admin API advances', async () => {
    const server = await whenReady(cli(['--port', '0', '--scenario', 'pending'], { PETSTORE_SIM_SHIP_AFTER: '10s-20s' }))
    const admin = `${new URL(server.url).origin}/__sim`
    expect(((await (await fetch(`${admin}/state`)).json()) as { options: { lifecycle: unknown } }).options.lifecycle).toEqual({
      min: 10_000,
      max: 20_000,
    })
    await fetch(`${admin}/clock`, { method: 'POST', body: '{"advance":"20s"}' })
    expect((await fetch(`${server.url}/store/orders/1`, { method: 'DELETE', headers: auth })).status).toBe(409)
  })

  test('reads every option from its environment variable, and a flag beats the variable', async () => {
    const fromEnv = await whenReady(
      cli([], { PETSTORE_SIM_PORT: '0', PETSTORE_SIM_SCENARIO: 'shipped', PETSTORE_SIM_QUIET: '1', PETSTORE_SIM_BASE_PATH: '/api' }),
    )
    expect(fromEnv.scenario).toBe('shipped')
    expect(fromEnv.url).toMatch(/\/api$/)
    const flagWins = await whenReady(cli(['--scenario', 'missing'], { PETSTORE_SIM_PORT: '0', PETSTORE_SIM_SCENARIO: 'shipped' }))
    expect(flagWins.scenario).toBe('missing')
  })

  test('loads a scenario file by path and applies --seed, --expose-status and --after-cancel', async () => {
    const server = await whenReady(cli(['--port', '0', '--seed', '7', '--expose-status', '--after-cancel', 'remove']))
    const orders = (await (await fetch(`${server.url}/store/orders`, { headers: auth })).json()) as { id: number; status: string }[]
    expect(orders).toEqual(
      createSimulator({ seed: 7, exposeStatus: true })
        .state()
        .orders.map(({ status, ...order }) => ({ ...order, status })),
    )
    const pending = orders.find((order) => order.status === 'pending')
    expect((await fetch(`${server.url}/store/orders/${pending?.id}`, { method: 'DELETE', headers: auth })).status).toBe(204)
    expect((await fetch(`${server.url}/store/orders/${pending?.id}`, { method: 'DELETE', headers: auth })).status).toBe(404)

    const path = join(tempFolder(), 'qa.json')
    writeFileSync(path, JSON.stringify({ name: 'qa', description: 'QA', apiKeys: ['qa-key'], orders: [{ id: 5, status: 'pending' }] }))
    const fromFile = await whenReady(cli(['--port', '0', '--scenario', path]))
    expect(fromFile.scenario).toBe('qa')
    expect(fromFile.keys).toBe('key: qa-key')
  })

  test('logs one line per request, and nothing with --quiet', async () => {
    const loud = await whenReady(cli(['--port', '0']))
    await fetch(`${loud.url}/store/orders/abc`, { method: 'DELETE', headers: auth })
    await expect.poll(() => loud.stdout()).toMatch(/^DELETE \/v1\/store\/orders\/abc 400 \d+\.\dms$/m)

    const quiet = await whenReady(cli(['--port', '0', '--quiet']))
    await fetch(`${quiet.url}/store/orders`, { headers: auth })
    // Stopped, it has written all it ever will: nothing is waited out.
    quiet.child.kill('SIGTERM')
    expect(await quiet.exited).toBe(0)
    expect(quiet.stdout().trimEnd().split('\n')).toHaveLength(1)
  })

  test('--admin-token (or PETSTORE_SIM_ADMIN_TOKEN) guards the admin API', async () => {
    const server = await whenReady(cli(['--port', '0'], { PETSTORE_SIM_ADMIN_TOKEN: 'qa-secret' }))
    const state = new URL('/__sim/state', server.url)
    expect((await fetch(state)).status).toBe(401)
    expect((await fetch(state, { headers: { Authorization: 'Bearer qa-secret' } })).status).toBe(200)
  })

  test('--no-admin turns the admin API off', async () => {
    const server = await whenReady(cli(['--port', '0', '--no-admin']))
    expect((await fetch(new URL('/__sim/state', server.url))).status).toBe(404)
  })

  test('on --host 0.0.0.0 the ready line carries a random admin token that the admin API then requires', async () => {
    const starting = cli(['--port', '0', '--host', '0.0.0.0'])
    const server = await whenReady(starting)
    const token = /admin token: ([A-Za-z0-9_-]+)\)/.exec(starting.stdout())?.[1]
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/)
    const state = `http://127.0.0.1:${new URL(server.url).port}/__sim/state`
    expect((await fetch(state)).status).toBe(401)
    expect((await fetch(state, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200)
  })

  test('--allowed-hosts and --admin-origins (or their variables) widen the Host and admin Origin checks', async () => {
    const server = await whenReady(
      cli(['--port', '0', '--allowed-hosts', 'sim.test'], { PETSTORE_SIM_ADMIN_ORIGINS: 'https://qa.example.test' }),
    )
    const { port } = new URL(server.url)
    const get = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) =>
        request({ host: '127.0.0.1', port, path, headers, setHost: false }, (res) => resolve(res.statusCode ?? 0))
          .on('error', reject)
          .end(),
      )
    expect(await get('/v1/store/orders', { Host: 'sim.test', ...auth })).toBe(200)
    expect(await get('/v1/store/orders', { Host: 'other.test', ...auth })).toBe(403)
    expect(await get('/__sim/state', { Host: `127.0.0.1:${port}`, Origin: 'https://qa.example.test' })).toBe(200)
    expect(await get('/__sim/state', { Host: `127.0.0.1:${port}`, Origin: 'https://evil.example' })).toBe(403)
  })
})

describe('help and version', () => {
  test('--help lists every flag with its environment variable and exits 0', async () => {
    const help = cli(['--help'])
    expect(await help.exited).toBe(0)
    for (const flag of FLAGS) {
      expect(help.stdout()).toContain(`--${flag.name}`)
      if (flag.env !== '') expect(help.stdout()).toContain(flag.env)
    }
  })

  test('--help names the verify command and every flag of it', async () => {
    const help = cli(['--help'])
    expect(await help.exited).toBe(0)
    expect(help.stdout()).toContain('petstore-sim verify --target <url> --key <token>')
    for (const flag of VERIFY_FLAGS) expect(help.stdout()).toContain(`--${flag.name}`)
  })

  test('--version prints the package version', async () => {
    const version = cli(['--version'])
    expect(await version.exited).toBe(0)
    expect(version.stdout().trim()).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version)
  })
})

describe('refusing to start', () => {
  test.each([
    [['--bogus'], /^Unknown option '--bogus'\. Run petstore-sim --help for the options\.$/],
    [['--port', 'abc'], /^--port must be a whole number from 0 to 65535, got "abc"\.$/],
    [['--port', '70000'], /^--port must be a whole number/],
    [['--after-cancel', 'drop'], /^--after-cancel must be keep or remove, got "drop"\.$/],
    [['--seed=-1'], /^--seed must be a whole number from 0 to /],
    [['--base-path', 'v1'], /^--base-path must be a path starting with "\/"/],
    [
      ['--scenario', 'shiped'],
      /^Failed to load scenario "shiped": no built-in scenario has this name; the built-in scenarios are default, pending, shipped, missing, bad-key/,
    ],
    [['--scenario', './nowhere.json'], /^Failed to load scenario "\.\/nowhere\.json": no such file\.$/],
    [['--allowed-hosts', 'a/b'], /^--allowed-hosts takes host names or addresses, got "a\/b"\.$/],
    [['--admin-origins', 'evil.example'], /^--admin-origins takes origins such as https:\/\/qa\.example\.test/],
    [
      ['--ship-after', '25h'],
      /^--ship-after must be a duration from 0 to 24h such as 30s, 250ms or 10m, or a range such as 10s-60s, got "25h"\.$/,
    ],
    [['--ship-after', '1m-10s'], /^--ship-after takes the shorter duration first, such as 10s-1m, got "1m-10s"\.$/],
  ])('%j exits 1 with one clear line on stderr', async (args, pattern) => {
    const failing = cli(['--port', '0', ...args])
    expect(await failing.exited).toBe(1)
    expectOneCleanErrorLine(failing.stderr(), pattern)
  })

  test('a bad scenario file exits 1 naming the file and the field', async () => {
    const path = join(tempFolder(), 'bad.json')
    writeFileSync(path, JSON.stringify({ name: 'bad', description: 'd', apiKeys: [], orders: [{ id: 1, status: 'lost' }] }))
    const failing = cli(['--port', '0', '--scenario', path])
    expect(await failing.exited).toBe(1)
    expectOneCleanErrorLine(failing.stderr(), /^Failed to load scenario ".*bad\.json": orders\[0\]\.status must be one of/)
  })

  test('a port in use exits 1 with one line saying so', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as { port: number }
    try {
      const failing = cli(['--port', String(port)])
      expect(await failing.exited).toBe(1)
      expectOneCleanErrorLine(
        failing.stderr(),
        new RegExp(
          `^Failed to start the simulator: 127\\.0\\.0\\.1:${port} is already in use\\. Pick another port with --port \\(0 picks a free one\\)\\.$`,
        ),
      )
    } finally {
      blocker.close()
    }
  })
})

describe('stopping', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)('%s closes the server and exits 0', async (signal) => {
    const server = await whenReady(cli(['--port', '0', '--quiet']))
    server.child.kill(signal)
    expect(await server.exited).toBe(0)
    expect(server.stderr()).toBe('')
  })

  test('SIGTERM sent to npm start reaches the server: nothing is left listening', async () => {
    const port = await freePort()
    const server = await whenReady(run('npm', ['start', '--silent', '--', '--port', String(port), '--quiet']))
    server.child.kill('SIGTERM')
    await server.exited
    await expect(fetch(`${server.url}/store/orders`, { headers: auth })).rejects.toThrow(TypeError)
  })

  test('SIGTERM lets a request in flight finish before exiting 0', async () => {
    const server = await whenReady(cli(['--port', '0', '--quiet', '--scenario', 'pending']))
    const url = new URL(`${server.url}/store/orders/1`)
    // A DELETE whose body arrives slowly is in flight until its last byte. Each step waits for the one before, not for
    // a time: the server has taken the request (its 100 Continue), SIGTERM has closed its port, then the last byte.
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(
        url,
        { method: 'DELETE', headers: { ...auth, 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked', Expect: '100-continue' } },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.once('continue', () => {
        req.write('first part;')
        server.child.kill('SIGTERM')
        refusing(url).then(() => req.end('last part'), reject)
      })
    })
    expect(await answer).toBe(204)
    expect(await server.exited).toBe(0)
  })
})

describe('stopping under load', () => {
  test('SIGTERM while requests are in flight: every request the server took is answered, then exit 0', async () => {
    const server = await whenReady(cli(['--port', '0', '--scenario', 'missing']))
    const outcomes: (number | string)[] = []
    let answered = 0
    let signalled = false
    const worker = async (index: number) => {
      for (let round = 0; round < 40; round++) {
        try {
          const response = await fetch(`${server.url}/store/orders${round % 2 === 0 ? '' : `/${index}`}`, {
            method: round % 2 === 0 ? 'GET' : 'DELETE',
            headers: auth,
          })
          await response.text()
          outcomes.push(response.status)
          answered++
          if (answered === 150 && !signalled) {
            signalled = true
            server.child.kill('SIGTERM')
          }
        } catch (error) {
          // After the server stops listening, new requests are refused or find their idle socket closed.
          const cause = (error as { cause?: { code?: string } }).cause
          outcomes.push(cause?.code ?? 'error')
          return
        }
      }
    }
    await Promise.all(Array.from({ length: 20 }, (_, index) => worker(index)))

    expect(await server.exited).toBe(0)
    expect(signalled).toBe(true)
    const statuses = outcomes.filter((outcome): outcome is number => typeof outcome === 'number')
    expect(new Set(statuses)).toEqual(new Set([200, 404]))
    for (const failure of outcomes.filter((outcome) => typeof outcome === 'string'))
      expect(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET']).toContain(failure)
    // One log line per answered request: none was taken and then dropped.
    const logged = server
      .stdout()
      .split('\n')
      .filter((line) => / \/v1\/store\/orders/.test(line))
    expect(logged).toHaveLength(statuses.length)
    expect(server.stderr()).toBe('')
  }, 60_000)
})

/** Resolves once the server at `url` refuses new connections: it has stopped listening. */
async function refusing(url: URL): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(url.port), url.hostname)
      socket.once('connect', () => {
        socket.destroy()
        resolve(false)
      })
      socket.once('error', () => resolve(true))
    })
    if (refused) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function createListFromSimulator(): Promise<Response> {
  const { setupServer } = await import('msw/node')
  const sim = createSimulator()
  const server = setupServer(...sim.handlers)
  server.listen()
  try {
    const response = await fetch('https://api.petstore.example/v1/store/orders', { headers: auth })
    return new Response(await response.text())
  } finally {
    server.close()
  }
}

/** A folder in the system's temp folder, removed when the test that made it finishes. */
function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-cli-'))
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
  return folder
}

/** A package folder of its own in the system's temp folder, holding `files` of the built dist/ and the package.json. */
function builtCommandCopy(files: string[]): string {
  const folder = tempFolder()
  mkdirSync(join(folder, 'dist'))
  writeFileSync(join(folder, 'package.json'), readFileSync(join(ROOT, 'package.json')))
  for (const file of files) copyFileSync(join(ROOT, 'dist', file), join(folder, 'dist', file))
  return folder
}

describe('the bundled CLI', () => {
  test('express and the MCP SDK come from the bundles beside it: the admin API, MCP and a preflight answer with no node_modules in reach', async () => {
    // The built command alone, where no node_modules folder is above it (as in the container image).
    const folder = builtCommandCopy(['cli.mjs', 'cli.cjs', 'cli-vendor.cjs', 'cli-mcp.cjs'])

    const server = await whenReady(run(process.execPath, [join(folder, 'dist/cli.mjs'), '--port', '0']))
    const origin = new URL(server.url).origin
    const state = await fetch(`${origin}/__sim/state`)
    expect(state.status).toBe(200)
    expect(await state.json()).toMatchObject({ scenario: 'default' })
    const preflight = await fetch(`${server.url}/store/orders/1`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'DELETE' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
    expect((await fetch(`${server.url}/store/orders/1`, { method: 'DELETE', headers: auth })).status).toBe(204)
    // The MCP SDK, too, comes from its bundle beside the command.
    const mcp = await fetch(`${origin}/__sim/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'getClock', arguments: {} } }),
    })
    expect(await mcp.json()).toMatchObject({ id: 1, result: { content: [{ type: 'text' }] } })
  })

  test('loads no msw, whatever it answers: the API, a preflight, HEAD, a body, the admin API, a 404', async () => {
    // Run where msw is installed (this repository), with Node printing every module it loads.
    const server = await whenReady(cli(['--port', '0', '--scenario', 'pending'], { NODE_DEBUG: 'module' }))
    const origin = new URL(server.url).origin
    const statuses: number[] = []
    for (const [url, init] of [
      [`${server.url}/store/orders`, { headers: auth }],
      [
        `${server.url}/store/orders/1`,
        { method: 'OPTIONS', headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'DELETE' } },
      ],
      [`${server.url}/store/orders`, { method: 'HEAD', headers: auth }],
      [`${server.url}/store/orders/1`, { method: 'DELETE', headers: auth, body: '{}' }],
      [`${origin}/__sim/reset`, { method: 'POST', body: '{}' }],
      [`${origin}/nope`, {}],
    ] as const) {
      const response = await fetch(url, init)
      await response.arrayBuffer()
      statuses.push(response.status)
    }
    expect(statuses).toEqual([200, 204, 405, 204, 200, 404])
    expect(server.stderr()).toMatch(/cli-vendor\.cjs/)
    // A request for msw or one of its files, or a file under an msw package (the checkout's own folder may be
    // named msw3: the matrix builds in .matrix/msw3).
    expect(server.stderr()).not.toMatch(/REQUEST (?:msw|@mswjs)[/ ]|node_modules\/(?:msw|@mswjs)\//)
  })
})
