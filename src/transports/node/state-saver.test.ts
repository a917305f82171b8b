import * as fs from 'node:fs/promises'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import type { StateFs } from './state-file.js'
import { createStateSaver } from './state-saver.js'
import { fullDisk } from '../../../test/support/full-disk.js'

const root = mkdtempSync(join(tmpdir(), 'state-saver-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** A saver over a state whose revision the test moves, on a clock the test sets; polls only when told. */
async function saverIn(fileSystem: StateFs = fs, maxBytes = 1_000_000) {
  const dir = await fs.mkdtemp(join(root, 'saver-'))
  const path = join(dir, 'state.json')
  const state = { revision: 0, time: 0, snapshots: 0 }
  const lines: string[] = []
  const saver = createStateSaver({
    maxBytes,
    hasFile: true,
    path,
    snapshot: () => ({ version: 1, revision: state.revision, made: ++state.snapshots }),
    revision: () => state.revision,
    warn: (line) => lines.push(line),
    fs: fileSystem,
    now: () => state.time,
    every: () => () => undefined,
  })
  const onDisk = () => JSON.parse(readFileSync(path, 'utf8')) as { revision: number }
  return { dir, path, state, lines, saver, onDisk }
}

test('writes nothing while nothing changed, then a change at the next poll', async () => {
  const { path, state, saver, onDisk } = await saverIn()
  await saver.poll()
  await saver.flush()
  expect(state.snapshots).toBe(0)
  await expect(fs.stat(path)).rejects.toThrow(/ENOENT/)
  state.revision = 1
  await saver.poll()
  expect(onDisk().revision).toBe(1)
})

test('waits 2 s between the starts of two writes, then writes the latest state', async () => {
  const { state, saver, onDisk } = await saverIn()
  state.revision = 1
  await saver.poll()
  state.revision = 2
  state.time = 1999
  await saver.poll()
  expect(onDisk().revision).toBe(1)
  state.time = 2000
  await saver.poll()
  expect(onDisk().revision).toBe(2)
  expect(state.snapshots).toBe(2)
})

test('flush writes at once what changed, whatever the time since the last write', async () => {
  const { state, saver, onDisk } = await saverIn()
  state.revision = 1
  await saver.poll()
  state.revision = 2
  await saver.flush()
  expect(onDisk().revision).toBe(2)
  await saver.flush()
  expect(state.snapshots).toBe(2)
})

test('a failing write is said once until one succeeds, keeps the last good file, leaves no temp file', async () => {
  let full = false
  const sometimesFull: StateFs = {
    ...fs,
    open: ((...args: Parameters<typeof fs.open>) => (full ? fullDisk : fs).open(...args)) as typeof fs.open,
  }
  const { dir, path, state, lines, saver, onDisk } = await saverIn(sometimesFull)
  state.revision = 1
  await saver.flush()
  full = true
  for (const revision of [2, 3, 4]) {
    state.revision = revision
    state.time += 2000
    await saver.poll()
  }
  await saver.flush()
  expect(lines).toEqual([`Failed to write the state file ${path}: ENOSPC; the last good file is kept`])
  expect(onDisk().revision).toBe(1)
  expect(readdirSync(dir)).toEqual(['state.json'])
  full = false
  state.time += 2000
  await saver.poll()
  expect(onDisk().revision).toBe(4)
  expect(lines.slice(1)).toEqual([`The state file ${path} is written again.`])
})

test('one write at a time: a poll while a write is in flight starts none', async () => {
  let release = (): void => undefined
  const held = new Promise<void>((resolve) => (release = resolve))
  const slow: StateFs = {
    ...fs,
    rename: (async (...args: Parameters<typeof fs.rename>) => {
      await held
      return fs.rename(...args)
    }) as typeof fs.rename,
  }
  const { state, saver, onDisk } = await saverIn(slow)
  state.revision = 1
  const first = saver.poll()
  state.revision = 2
  state.time = 5000
  await saver.poll()
  expect(state.snapshots).toBe(1)
  const flushed = saver.flush()
  release()
  await first
  await flushed
  expect(onDisk().revision).toBe(2)
  expect(state.snapshots).toBe(2)
})

test('a state larger than a start reads back is not written: said once, the last good file kept', async () => {
  const { path, state, lines, saver, onDisk } = await saverIn(fs, 40)
  state.revision = 1
  expect(await saver.flush()).toBe(true)
  state.revision = 1_000_000_000_000
  expect(await saver.flush()).toBe(false)
  expect(onDisk().revision).toBe(1)
  expect(lines).toEqual([
    `Failed to write the state file ${path}: the state is 47 bytes, over the 40 a start reads back; the last good file is kept`,
  ])
})

test('flush({ always }) writes though nothing moved (sessions gone idle move no counter); a failure resolves false', async () => {
  let full = false
  const sometimesFull: StateFs = {
    ...fs,
    open: ((...args: Parameters<typeof fs.open>) => (full ? fullDisk : fs).open(...args)) as typeof fs.open,
  }
  const { state, saver } = await saverIn(sometimesFull)
  await saver.flush({ always: true })
  expect(state.snapshots).toBe(1)
  full = true
  expect(await saver.flush({ always: true })).toBe(false)
})
