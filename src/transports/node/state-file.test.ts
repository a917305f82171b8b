import * as fs from 'node:fs/promises'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import {
  checkStateFolder,
  checkStatePath,
  lockState,
  markRestoring,
  readStateFile,
  removeLeftoverTemps,
  setAside,
  type StateFs,
  stateFileBound,
  unlockState,
  unmarkRestoring,
  writeStateFile,
} from './state-file.js'
import { fullDisk } from '../../../test/support/full-disk.js'

const root = mkdtempSync(join(tmpdir(), 'state-file-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let made = 0
/** A fresh folder for one test, under `root`. */
const folder = () => fs.mkdtemp(join(root, `${++made}-`))

describe('the folder check at start', () => {
  test('takes a writable folder, leaving nothing behind', async () => {
    const dir = await folder()
    await checkStateFolder(join(dir, 'state.json'))
    expect(readdirSync(dir)).toEqual([])
  })

  test.each([
    ['a folder that does not exist', (dir: string) => join(dir, 'nope', 'state.json'), /the folder .*nope does not exist$/],
    [
      'a file as the folder',
      (dir: string) => {
        writeFileSync(join(dir, 'f'), '')
        return join(dir, 'f', 'state.json')
      },
      /f is not a folder$/,
    ],
    ['a folder as the path', (dir: string) => dir, /it is a folder or a special file; name a file in a folder$/],
  ])('refuses %s in one line naming --state-file', async (_, pathIn, why) => {
    const path = pathIn(await folder())
    const refusal = checkStateFolder(path)
    await expect(refusal).rejects.toThrow(/^Failed to start the simulator: --state-file \S+: /)
    await expect(refusal).rejects.toThrow(why)
  })

  test('refuses a folder it cannot write, as a read-only mount', async () => {
    const dir = await folder()
    const readOnly: StateFs = { ...fs, open: (() => Promise.reject(Object.assign(new Error('read-only'), { code: 'EROFS' }))) as never }
    await expect(checkStateFolder(join(dir, 'state.json'), readOnly)).rejects.toThrow(/the folder \S+ cannot be written \(EROFS\)$/)
  })

  test.each([[''], ['a\nb.json'], ['state\u001b[2J.json'], ['x\u0085'], [42]])('refuses the path %j', (path) => {
    expect(() => checkStatePath(path)).toThrow(
      /^Failed to start the simulator: --state-file must be a path of a file, without control characters\.$/,
    )
  })
})

describe('reading the file at start', () => {
  test('a missing file is a fresh start', async () => {
    expect(await readStateFile(join(await folder(), 'state.json'), 1000)).toEqual({ kind: 'missing' })
  })

  test('a file of this version is found', async () => {
    const path = join(await folder(), 'state.json')
    writeFileSync(path, JSON.stringify({ version: 1, states: [] }))
    expect(await readStateFile(path, 1000)).toEqual({ kind: 'found', document: { version: 1, states: [] } })
  })

  test.each([
    ['junk', 'not UTF-8 JSON'],
    ['\u001b[2J{"version":1', 'not UTF-8 JSON'],
    [Buffer.from([0x7b, 0xff, 0x7d]), 'not UTF-8 JSON'],
    ['', 'empty'],
    ['[1]', 'not a state file: no "version"'],
    ['null', 'not a state file: no "version"'],
    ['{"__proto__":{"version":1}}', 'not a state file: no "version"'],
    ['{"version":2}', 'version 2, this server reads version 1'],
    ['{"version":"1"}', 'version unknown, this server reads version 1'],
    ['{"version":1e400}', 'version unknown, this server reads version 1'],
  ])('%j is unusable: %s', async (text, why) => {
    const path = join(await folder(), 'state.json')
    writeFileSync(path, text)
    expect(await readStateFile(path, 1000)).toEqual({ kind: 'unusable', why })
  })

  test('a file over the bound is not read', async () => {
    const path = join(await folder(), 'state.json')
    writeFileSync(path, JSON.stringify({ version: 1, pad: 'x'.repeat(2000) }))
    expect(await readStateFile(path, 1000)).toEqual({ kind: 'unusable', why: expect.stringMatching(/^over 1000 bytes, more than/) })
  })

  test('a file that cannot be read says why', async () => {
    const unreadable: StateFs = { ...fs, open: (() => Promise.reject(Object.assign(new Error('denied'), { code: 'EACCES' }))) as never }
    expect(await readStateFile(join(await folder(), 'state.json'), 1000, unreadable)).toEqual({
      kind: 'unusable',
      why: 'cannot be read: EACCES',
    })
  })
})

test('a file set aside is renamed beside itself, never deleted, with one warning line', async () => {
  const path = join(await folder(), 'state.json')
  writeFileSync(path, 'junk')
  const line = await setAside(path, 'not UTF-8 JSON', new Date('2026-05-01T10:20:30.456Z'))
  const aside = `${path}.corrupt-2026-05-01T10-20-30-456Z`
  expect(line).toBe(`Warning: --state-file ${path} not restored (not UTF-8 JSON); starting fresh; moved to ${aside}`)
  expect(readFileSync(aside, 'utf8')).toBe('junk')
  await expect(fs.stat(path)).rejects.toThrow(/ENOENT/)
})

test('leftover temp files of ours are removed, and nothing else', async () => {
  const dir = await folder()
  for (const name of ['.state.json.1.tmp', '.state.json.4242.tmp', '.state.json.x.tmp', '.other.json.1.tmp', 'state.json', 'notes.tmp'])
    writeFileSync(join(dir, name), '')
  await removeLeftoverTemps(join(dir, 'state.json'))
  expect(readdirSync(dir).sort()).toEqual(['.other.json.1.tmp', '.state.json.x.tmp', 'notes.tmp', 'state.json'])
})

describe('writing', () => {
  test('replaces the file whole, owner-only, with no temp file left', async () => {
    const dir = await folder()
    const path = join(dir, 'state.json')
    writeFileSync(path, 'old')
    await writeStateFile(path, '{"version":1}')
    expect(readFileSync(path, 'utf8')).toBe('{"version":1}')
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual(['state.json'])
  })

  test('a failed write keeps the last good file and leaves no temp file', async () => {
    const dir = await folder()
    const path = join(dir, 'state.json')
    writeFileSync(path, 'good')
    await expect(writeStateFile(path, 'new', fullDisk)).rejects.toThrow(/no space/)
    expect(readFileSync(path, 'utf8')).toBe('good')
    expect(readdirSync(dir)).toEqual(['state.json'])
  })
})

describe('one server to a file', () => {
  const lockOf = (dir: string) => join(dir, '.state.json.lock')
  test('a second server of this machine whose holder runs is refused, naming it', async () => {
    const path = join(await folder(), 'state.json')
    writeFileSync(lockOf(join(path, '..')), `${hostname()} 4242\n`)
    await expect(lockState(path, fs, () => true)).rejects.toThrow(
      `Failed to start the simulator: --state-file ${path}: another server (process 4242) uses this file; give each server its own`,
    )
    expect(readFileSync(lockOf(join(path, '..')), 'utf8')).toBe(`${hostname()} 4242\n`)
  })

  test.each([
    ['whose process is gone', `${hostname()} 4242\n`, false],
    ['of this very pid (a container restarted)', `${hostname()} ${process.pid}\n`, true],
    ['that is not one of ours', 'junk', true],
    ['of another machine', `elsewhere.example 4242\n`, true],
  ])('a lock %s is taken over, and unlock frees it', async (_, held, alive) => {
    const dir = await folder()
    const path = join(dir, 'state.json')
    writeFileSync(lockOf(dir), held)
    await lockState(path, fs, () => alive)
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${hostname()} ${process.pid}\n`)
    await unlockState(path)
    expect(readdirSync(dir)).toEqual([])
  })
})

test('a restore that died leaves its mark, which the next start sees once', async () => {
  const dir = await folder()
  const path = join(dir, 'state.json')
  expect(await markRestoring(path)).toBe(false)
  expect(await markRestoring(path)).toBe(true)
  await unmarkRestoring(path)
  expect(readdirSync(dir)).toEqual([])
})

test('an empty file says so; the bound a start reads is what a save may write, recordings in base64 included', async () => {
  const path = join(await folder(), 'state.json')
  writeFileSync(path, '')
  expect(await readStateFile(path, 1000)).toEqual({ kind: 'unusable', why: 'empty' })
  const mib = 1024 * 1024
  expect(stateFileBound(256 * mib)).toBeGreaterThan((256 * mib * 4) / 3 + 200_000 * 300)
})
