import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createSimulator, type Simulator } from '../src/index.js'
import type { ScenarioFolder } from '../src/core/platform.js'
import { folderFileSystem, type FolderFileSystem } from '../src/platform/node/folder-file-system.js'
import { openScenarioFolder } from '../src/platform/node/scenario-folder.js'
import { createScenarioWriter } from '../src/platform/node/write-scenario-file.js'

// Each test starts the built CLI as a process: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

// The scenarios folder against a hostile or failing file system (issue 42, sections 3 and 4):
// a FIFO renamed in between a listing and a read, a save on a full disk, temporary files a crash left.

const made: { dirs: string[]; folders: ScenarioFolder[]; sims: Simulator[]; children: ChildProcess[] } = {
  dirs: [],
  folders: [],
  sims: [],
  children: [],
}
afterEach(() => {
  for (const child of made.children.splice(0)) child.kill()
  for (const folder of made.folders.splice(0)) folder.close()
  for (const sim of made.sims.splice(0)) sim.close()
  for (const dir of made.dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  vi.restoreAllMocks()
})

function folderWith(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-folder-hazards-'))
  made.dirs.push(dir)
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  return dir
}

function open(dir: string, fs: FolderFileSystem, warn: (line: string) => void = () => undefined): ScenarioFolder {
  const folder = openScenarioFolder(dir, warn, { fs })
  made.folders.push(folder)
  return folder
}

/**
 * Node's file system, but the first stat of `path` after `arm()` renames `fifo` over it just after
 * looking: the file is regular when listed and a FIFO when opened, the race of the issue made certain.
 */
function swappingFs(path: string, fifo: string): { fs: FolderFileSystem; arm(): void } {
  const real = folderFileSystem()
  let armed = false
  const fs: FolderFileSystem = {
    ...real,
    statSync(file) {
      const stats = real.statSync(file)
      if (armed && file === path) {
        armed = false
        renameSync(fifo, path)
      }
      return stats
    },
  }
  return { fs, arm: () => (armed = true) }
}

/**
 * A process that opens `path` for writing whenever it is a FIFO with a reader waiting, so that a
 * read that blocks in open() (the bug) ends with an empty file, and the test fails, rather than
 * freezing this worker for good: a blocked synchronous open() stops every timer in it.
 */
function unblocker(path: string): void {
  const script = `const fs = require('node:fs')
setInterval(() => {
  try {
    const fd = fs.openSync(process.argv[1], fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)
    const fifo = fs.fstatSync(fd).isFIFO()
    fs.closeSync(fd)
    if (fifo) process.exit(0)
  } catch {}
}, 50)`
  made.children.push(spawn(process.execPath, ['-e', script, path], { stdio: 'ignore' }))
}

/** A FIFO at a fresh path beside the folder (the same file system, so it can be renamed in). */
function makeFifo(dir: string): string {
  const fifo = join(dir, '.incoming-pipe')
  execFileSync('mkfifo', [fifo])
  return fifo
}

describe.skipIf(process.platform === 'win32')('a FIFO swapped in for a folder file', () => {
  test('a load by name is refused as not a regular file, at once, and the folder keeps working', () => {
    const dir = folderWith({ 'x.json': '{"orders":[{"id":1}]}', 'good.json': '{"orders":[{"id":2}]}' })
    const path = join(dir, 'x.json')
    const { fs, arm } = swappingFs(path, makeFifo(dir))
    unblocker(path)
    const folder = open(dir, fs)
    expect(folder.list().map((entry) => [entry.name, entry.error])).toEqual([
      ['good', null],
      ['x', null],
    ])
    arm()
    expect(() => folder.load('x')).toThrow(
      `Failed to load scenario "${path}": it is a named pipe (FIFO), not a regular file, which a scenario file of the folder must be.`,
    )
    expect(folder.load('good')?.scenario.orders).toEqual([{ id: 2, status: 'pending' }])
    // Now a FIFO when listed too, it is left out like any file that is not a regular one.
    expect(folder.list().map((entry) => entry.name)).toEqual(['good'])
  })

  test('swapped in while the folder is first read, its error is said on stderr and the others load', () => {
    const dir = folderWith({ 'x.json': '{"orders":[{"id":1}]}', 'good.json': '{"orders":[{"id":2}]}' })
    const path = join(dir, 'x.json')
    const { fs, arm } = swappingFs(path, makeFifo(dir))
    unblocker(path)
    arm()
    const warn = vi.fn<(line: string) => void>()
    const folder = open(dir, fs, warn)
    expect(warn.mock.calls.map(([line]) => line)).toEqual([
      `Failed to load scenario "${path}": it is a named pipe (FIFO), not a regular file, which a scenario file of the folder must be. ` +
        "The file is listed with this error; the folder's other scenarios work.",
    ])
    expect(folder.load('good')?.scenario.orders).toEqual([{ id: 2, status: 'pending' }])
  })
})

describe('a save that fails', () => {
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })

  test.each([
    ['the write runs out of space half way', 'writeFile'],
    ['the link that names it fails', 'link'],
  ] as const)('leaves no temporary file when %s, and a save once there is room again works', async (_, failing) => {
    const dir = folderWith()
    const real = folderFileSystem()
    let full = true
    const fs: FolderFileSystem = {
      ...real,
      async writeFile(file, text, options) {
        if (!full || failing !== 'writeFile') return real.writeFile(file, text, options)
        // A full disk takes part of the text first.
        writeFileSync(file, text.slice(0, text.length / 2), { flag: options.flag })
        throw enospc()
      },
      async link(from, to) {
        if (full && failing === 'link') throw enospc()
        return real.link(from, to)
      },
    }
    const write = createScenarioWriter(fs, dir)
    const text = JSON.stringify({ name: 'full', orders: [{ id: 1 }] })
    for (let attempt = 0; attempt < 3; attempt++)
      await expect(write('full', text, false)).rejects.toMatchObject({
        status: 409,
        code: 'scenarios_dir_unavailable',
        message: expect.stringContaining('has no space left'),
      })
    expect(readdirSync(dir)).toEqual([])
    full = false
    expect(await write('full', text, false)).toEqual({ path: join(dir, 'full.json'), overwritten: false })
    expect(readdirSync(dir)).toEqual(['full.json'])
    expect(readFileSync(join(dir, 'full.json'), 'utf8')).toBe(text)
  })
})

describe('temporary files left by saves that never finished', () => {
  test('opening the folder removes those of its own naming over an hour old, and nothing else', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e'
    const stale = `.qa-big.json.${uuid}.tmp`
    const files = {
      [stale]: '{"name":"qa-big","ord',
      [`.qa-big.json.${uuid.replace('0f8f', '1f8f')}.tmp`]: 'a save of another server, minutes old',
      '.notes.tmp': 'not of its naming',
      '.qa-big.json.backup.tmp': 'not of its naming',
      'qa-big.json': '{"orders":[{"id":1}]}',
    }
    const dir = folderWith(files)
    const twoHoursAgo = (Date.now() - 2 * 60 * 60 * 1000) / 1000
    const tenMinutesAgo = (Date.now() - 10 * 60 * 1000) / 1000
    for (const file of Object.keys(files)) utimesSync(join(dir, file), twoHoursAgo, twoHoursAgo)
    utimesSync(join(dir, `.qa-big.json.${uuid.replace('0f8f', '1f8f')}.tmp`), tenMinutesAgo, tenMinutesAgo)
    made.sims.push(createSimulator({ scenariosDir: dir, scenario: 'qa-big' }))
    expect(existsSync(join(dir, stale))).toBe(false)
    expect(readdirSync(dir).sort()).toEqual(
      Object.keys(files)
        .filter((file) => file !== stale)
        .sort(),
    )
    expect(warn.mock.calls.map(([line]) => String(line))).toEqual([
      `petstore-orders-simulator: Removed 1 temporary file(s) of saves that did not finish over an hour ago from the scenarios folder ${dir} (${stale}).`,
    ])
  })
})
