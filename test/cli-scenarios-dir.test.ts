import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { CLI, useProcesses, whenReady } from './support/cli-process.js'

// Each test starts the built CLI as a process: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

// petstore-sim --scenarios-dir (PETSTORE_SIM_SCENARIOS_DIR), as the container image runs it (issue 32).

const run = useProcesses()
const cli = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [CLI, '--port', '0', ...args], env)

// Removed after the file: one is made while the tests are collected, and a server may still be reading one until its test ends.
const folders: string[] = []
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function folderWith(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-cli-folder-'))
  folders.push(dir)
  for (const [file, content] of Object.entries(files))
    writeFileSync(join(dir, file), typeof content === 'string' ? content : JSON.stringify(content))
  return dir
}

describe('petstore-sim --scenarios-dir', () => {
  test('starts with a folder scenario by name, says the folder on the ready line, and saves into it', async () => {
    const dir = folderWith({ 'qa-big.json': { orders: [{ id: 1 }, { id: 2 }] } })
    const server = await whenReady(cli(['--scenario', 'qa-big'], { PETSTORE_SIM_SCENARIOS_DIR: dir }))
    expect(server.scenario).toBe('qa-big')
    expect(server.stdout()).toContain(`scenarios folder: ${dir} (1 file)`)
    const admin = `${new URL(server.url).origin}/__sim`
    const saved = await fetch(`${admin}/scenarios`, { method: 'POST', body: JSON.stringify({ name: 'copy' }) })
    expect(saved.status).toBe(201)
    expect(JSON.parse(readFileSync(join(dir, 'copy.json'), 'utf8'))).toMatchObject({ name: 'copy', orders: [{ id: 1 }, { id: 2 }] })
  })

  test('a broken file is said once on stderr naming it; the server serves the others', async () => {
    const dir = folderWith({ 'good.json': { orders: [] }, 'bad.json': '{"orders": [' })
    const server = await whenReady(cli(['--scenarios-dir', dir]))
    expect(server.stderr()).toMatch(/^petstore-orders-simulator: Failed to load scenario ".*bad\.json": the file is not valid JSON/m)
    const reset = await fetch(`${new URL(server.url).origin}/__sim/reset`, { method: 'POST', body: '{"scenario":"good"}' })
    expect(reset.status).toBe(200)
  })

  test('an empty PETSTORE_SIM_SCENARIOS_DIR turns the folder off', async () => {
    const server = await whenReady(cli([], { PETSTORE_SIM_SCENARIOS_DIR: '' }))
    expect(server.stdout()).not.toContain('scenarios folder')
  })

  test.each([
    [['--scenarios-dir', '/no/such/folder'], {}, /^--scenarios-dir \/no\/such\/folder does not exist\. Give a folder of scenario files/],
    [[], { PETSTORE_SIM_SCENARIOS_DIR: CLI }, /^PETSTORE_SIM_SCENARIOS_DIR .*cli\.mjs is a file, not a folder\./],
    [
      ['--scenario', 'nope'],
      { PETSTORE_SIM_SCENARIOS_DIR: folderWith({}) },
      /^Failed to load scenario "nope": neither a built-in scenario nor a file of the scenarios folder/,
    ],
  ])('%j %j exits 1 with one clear line', async (args, env, pattern) => {
    const failing = cli(args, env)
    expect(await failing.exited).toBe(1)
    const lines = failing.stderr().trimEnd().split('\n')
    expect(lines, failing.stderr()).toHaveLength(1)
    expect(lines[0]).toMatch(pattern)
  })
})
