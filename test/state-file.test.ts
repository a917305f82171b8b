import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, onTestFinished, test, vi } from 'vitest'
import { type CliCommand, parseCommandLine } from '../src/cli/cli-options.js'
import { CliUsageError } from '../src/cli/usage-error.js'
import { createSimulator } from '../src/index.js'
import { startSimulatorServer } from '../src/server.js'
import { CLI, type CliRun, type ReadyCli, useProcesses, whenReady } from './support/cli-process.js'
import { KEY } from './support/harness.js'

// Each test starts the built CLI as a process, some twice: seconds on an idle machine, three to four times that beside other work.
vi.setConfig({ testTimeout: 30_000 })

const run = useProcesses()
const cli = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [CLI, ...args], env)
const auth = { Authorization: `Bearer ${KEY}` }

let root = ''
let made = 0
/** A fresh folder for one test; all of them go in afterAll. */
const folder = () => mkdtempSync(join(root, `${++made}-`))

beforeAll(() => {
  expect(existsSync(CLI), 'run "npm run build" first (npm test does)').toBe(true)
  root = mkdtempSync(join(tmpdir(), 'state-file-cli-'))
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

// Statuses in the list: a cancelled order shows as such.
const serve = (path: string, env: Record<string, string> = {}) =>
  whenReady(cli(['--port', '0', '--scenario', 'pending', '--expose-status', '--state-file', path], env))

/** What a client sees of one state: its orders, its scenario and its latency. */
async function seen(server: ReadyCli, session?: string) {
  const named: Record<string, string> = session === undefined ? {} : { 'X-Sim-Session': session }
  const admin = `${new URL(server.url).origin}/__sim`
  const orders = await (await fetch(`${server.url}/store/orders`, { headers: { ...auth, ...named } })).json()
  const { scenario } = (await (await fetch(`${admin}/state`, { headers: named })).json()) as { scenario: string }
  const latency = await (await fetch(`${admin}/latency`, { headers: named })).json()
  return { orders, scenario, latency }
}

/** Stops the server with `signal` and resolves with its exit. */
function stop(server: CliRun, signal: NodeJS.Signals): Promise<number | string | null> {
  server.child.kill(signal)
  return server.exited
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '')

describe('a restart keeps every state', () => {
  test('after SIGTERM: the default state and two sessions, one reset to shipped, one with a cancel and a latency', async () => {
    const dir = folder()
    const path = join(dir, 'state.json')
    const first = await serve(path)
    expect(first.stdout()).not.toMatch(/restored/)
    const admin = `${new URL(first.url).origin}/__sim`
    expect((await fetch(`${first.url}/store/orders/1`, { method: 'DELETE', headers: auth })).status).toBe(204)
    const reset = await fetch(`${admin}/reset`, {
      method: 'POST',
      headers: { 'X-Sim-Session': 'qa-shipped' },
      body: '{"scenario":"shipped"}',
    })
    expect(reset.status).toBe(200)
    const cancel = await fetch(`${first.url}/store/orders/2`, { method: 'DELETE', headers: { ...auth, 'X-Sim-Session': 'qa-cancel' } })
    expect(cancel.status).toBe(204)
    const latency = await fetch(`${admin}/latency`, {
      method: 'PUT',
      headers: { 'X-Sim-Session': 'qa-cancel' },
      body: '{"cancelOrder":20}',
    })
    expect(latency.status).toBe(200)
    const before = [await seen(first), await seen(first, 'qa-shipped'), await seen(first, 'qa-cancel')]
    expect(before.map((state) => state.scenario)).toEqual(['pending', 'shipped', 'pending'])

    expect(await stop(first, 'SIGTERM')).toBe(0)
    // Written whole, owner-only, and no temp file left beside it.
    expect(readdirSync(dir)).toEqual(['state.json'])
    expect(statSync(path).mode & 0o777).toBe(0o600)

    const second = await serve(path)
    expect(lines(second.stdout())).toContain(`restored 2 sessions from ${path}`)
    expect(second.stderr()).toBe('')
    expect([await seen(second), await seen(second, 'qa-shipped'), await seen(second, 'qa-cancel')]).toEqual(before)
    // The cancel is kept: the order is cancelled, not pending, so a second cancel is no 204.
    const again = await fetch(`${second.url}/store/orders/2`, { method: 'DELETE', headers: { ...auth, 'X-Sim-Session': 'qa-cancel' } })
    expect(again.status).not.toBe(204)
  })

  // The requirement is about real time (a change is on disk within 5 s), so this test waits it out:
  // 6 s after the change the process is killed with no chance to save, and the change must be in the file.
  test('kill -9 six seconds after a change keeps it', { timeout: 60_000 }, async () => {
    const path = join(folder(), 'state.json')
    const first = await serve(path)
    const cancel = await fetch(`${first.url}/store/orders/3`, { method: 'DELETE', headers: { ...auth, 'X-Sim-Session': 'k9' } })
    expect(cancel.status).toBe(204)
    const before = await seen(first, 'k9')
    await new Promise((resolve) => setTimeout(resolve, 6000))
    expect(await stop(first, 'SIGKILL')).toBe('SIGKILL')

    const second = await serve(path)
    expect(lines(second.stdout())).toContain(`restored 1 session from ${path}`)
    expect(await seen(second, 'k9')).toEqual(before)
    expect(await seen(second)).not.toEqual(before)
  })
})

describe('a file that cannot be restored is set aside', () => {
  test.each([
    ['junk', 'this is not json', 'not UTF-8 JSON'],
    ['another version', '{"version":2}', 'version 2, this server reads version 1'],
    ['a document restore refuses', '{"version":1,"states":"none"}', /.+/],
  ])('%s: one warning line, a .corrupt-<time> file beside it, a fresh start', async (_, text, why) => {
    const dir = folder()
    const path = join(dir, 'state.json')
    writeFileSync(path, text)
    const server = await serve(path)
    const warnings = lines(server.stderr())
    expect(warnings, server.stderr()).toHaveLength(1)
    const warning = /^Warning: --state-file (\S+) not restored \((.+)\); starting fresh; moved to (\S+)$/.exec(warnings[0] ?? '')
    expect(warning?.[1]).toBe(path)
    expect(warning?.[2]).toMatch(why)
    const aside = readdirSync(dir).filter((name) => /^state\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.test(name))
    expect(aside).toHaveLength(1)
    expect(warning?.[3]).toBe(join(dir, aside[0] ?? ''))
    expect(readFileSync(join(dir, aside[0] ?? ''), 'utf8')).toBe(text)
    expect(server.stdout()).not.toMatch(/restored/)
    expect((await seen(server)).scenario).toBe('pending')
  })
})

describe('refused at start: exit 1, one line naming --state-file', () => {
  /** Waits for the process to end; its stderr must be one line, no stack. */
  async function refused(server: CliRun): Promise<string> {
    expect(await server.exited).toBe(1)
    const said = lines(server.stderr())
    expect(said, server.stderr()).toHaveLength(1)
    expect(server.stderr()).not.toMatch(/^\s+at /m)
    return said[0] ?? ''
  }

  test('a folder that does not exist', async () => {
    const path = join(folder(), 'missing', 'state.json')
    expect(await refused(cli(['--port', '0', '--state-file', path]))).toBe(
      `Failed to start the simulator: --state-file ${path}: the folder ${join(path, '..')} does not exist`,
    )
  })

  test('a folder as the path', async () => {
    const dir = folder()
    expect(await refused(cli(['--port', '0', '--state-file', dir]))).toBe(
      `Failed to start the simulator: --state-file ${dir}: it is a folder or a special file; name a file in a folder`,
    )
  })

  test.each([
    [['--state-file', ''], {}, '--state-file must be the path of a file, with no control characters in it.'],
    [['--state-file', 'state\u001b[2J.json'], {}, '--state-file must be the path of a file, with no control characters in it.'],
    [[], { PETSTORE_SIM_STATE_FILE: 'a\nb.json' }, 'PETSTORE_SIM_STATE_FILE must be the path of a file, with no control characters in it.'],
  ])('%j %j', async (args, env, line) => {
    expect(await refused(cli(['--port', '0', ...args], env))).toBe(line)
  })
})

describe('the flag and its variable', () => {
  const parsed = (argv: string[], env: Record<string, string> = {}): CliCommand | string => {
    try {
      return parseCommandLine(argv, env, () => undefined)
    } catch (error) {
      if (error instanceof CliUsageError) return error.message
      throw error
    }
  }
  const stateFileOf = (command: CliCommand | string) =>
    typeof command === 'string' ? command : command.kind === 'start' && command.options.stateFile

  test.each([
    [['--state-file', '/data/state.json'], {}, '/data/state.json'],
    [[], { PETSTORE_SIM_STATE_FILE: '/data/state.json' }, '/data/state.json'],
    [['--state-file', 'mine.json'], { PETSTORE_SIM_STATE_FILE: '/data/state.json' }, 'mine.json'],
    [['--state-file=with space/é.json'], {}, 'with space/é.json'],
    // An empty variable turns the file off (`docker run -e PETSTORE_SIM_STATE_FILE=`), as for the scenarios folder.
    [[], { PETSTORE_SIM_STATE_FILE: '' }, undefined],
    [['--state-file', 'x\u0085.json'], {}, '--state-file must be the path of a file, with no control characters in it.'],
    [['--state-file'], {}, expect.stringMatching(/^Option '--state-file <value>' argument missing/)],
  ])('%j %j → %j', (argv, env, expected) => {
    expect(stateFileOf(parsed(argv, env))).toEqual(expected)
  })

  test('the flag wins over the variable at start too', async () => {
    const path = join(folder(), 'state.json')
    const server = await whenReady(
      cli(['--port', '0', '--state-file', path], { PETSTORE_SIM_STATE_FILE: join(root, 'missing', 'state.json') }),
    )
    expect(server.stderr()).toBe('')
  })
})

test('a start that died restoring the file (its mark left) sets the file aside instead of dying again', async () => {
  const dir = folder()
  const path = join(dir, 'state.json')
  writeFileSync(path, '{"version":1}')
  writeFileSync(join(dir, '.state.json.restoring'), '')
  const server = await serve(path)
  expect(lines(server.stderr())).toEqual([
    expect.stringMatching(
      /^Warning: --state-file \S+ not restored \(a start died while restoring it\); starting fresh; moved to \S+\.corrupt-/,
    ),
  ])
  expect(readdirSync(dir).filter((name) => !name.startsWith('state.json.corrupt-'))).toEqual(['.state.json.lock'])
  expect(server.stdout()).toContain(`state file ${path}: nothing to restore; every state is saved there from now on`)
})

test('a second server on the same file is refused: it would overwrite the first one’s sessions', async () => {
  const path = join(folder(), 'state.json')
  const first = await serve(path)
  const second = cli(['--port', '0', '--state-file', path])
  expect(await second.exited).toBe(1)
  expect(lines(second.stderr())).toEqual([
    `Failed to start the simulator: --state-file ${path}: another server (process ${first.child.pid}) uses this file; give each server its own`,
  ])
  expect(await stop(first, 'SIGTERM')).toBe(0)
  // The first one's stop freed the file: the next start takes it.
  const third = await serve(path)
  expect(third.stdout()).toContain(`restored 0 sessions from ${path}`)
})

describe('startSimulatorServer({ stateFile }) in process', () => {
  test.each([[''], ['a\u0000b.json'], ['line\nbreak.json']])('refuses the path %j in one line', async (stateFile) => {
    await expect(startSimulatorServer({ port: 0, stateFile })).rejects.toThrow(
      /^Failed to start the simulator: --state-file must be a path of a file, without control characters\.$/,
    )
  })

  test('refuses a simulator of the caller’s: the file restores into one the server makes', async () => {
    const simulator = createSimulator()
    onTestFinished(() => simulator.close())
    await expect(startSimulatorServer({ port: 0, simulator, stateFile: join(folder(), 'state.json') })).rejects.toThrow(
      /^Failed to start the simulator: stateFile restores into a simulator the server makes; give it without simulator\.$/,
    )
  })

  test('close() writes what changed; the next start restores it and says how many sessions came back', async () => {
    const path = join(folder(), 'state.json')
    const warnings: string[] = []
    const first = await startSimulatorServer({
      port: 0,
      scenario: 'pending',
      stateFile: path,
      onStateWarning: (line) => warnings.push(line),
    })
    expect(first.restoredSessions).toBeNull()
    await first.sim.session('in-process').removeOrder(1)
    await first.close()
    const second = await startSimulatorServer({ port: 0, scenario: 'pending', stateFile: path })
    onTestFinished(() => second.close())
    expect(second.restoredSessions).toBe(1)
    expect(second.sim.session('in-process').order(1)).toBeUndefined()
    expect(second.sim.order(1)).toBeDefined()
    expect(warnings).toEqual([])
  })
})
