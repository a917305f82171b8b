// The state file (`--state-file`) on disk: the folder checked at start, a file read with a bound and set
// aside when it cannot be restored, and each save written atomically (temp file, fsync, rename).
import * as nodeFs from 'node:fs/promises'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { systemErrorCode } from '../../core/system-error-code.js'

/** The file system calls the state file makes: node:fs/promises, or a test's stand-in that fails some. */
export type StateFs = Pick<typeof nodeFs, 'open' | 'rename' | 'rm' | 'stat' | 'readdir'>

/** The version of the document this server writes and restores. */
const STATE_VERSION = 1

/** The most own orders one state's snapshot holds (changed, removed and added: twice a scenario's bound). */
const MAX_STATE_ORDERS = 200_000
/** The most one own order takes in the file: an int64 id and pet id, a date, the fields' names. */
const ORDER_JSON_BYTES = 320
/** Room for each state's fixed part (options, clock, counts) and the document's own. */
const FILE_SLACK_BYTES = 1024 * 1024

/**
 * The largest state file a start reads, and so the largest a save writes: what the sessions may hold
 * (--max-session-memory) with recorded bodies in base64 (4/3), the default state's own orders (not
 * charged to the sessions) and some room. One bound for both sides, so a server never writes a file
 * it would set aside.
 */
export function stateFileBound(maxSessionBytes: number): number {
  return Math.ceil((maxSessionBytes * 4) / 3) + MAX_STATE_ORDERS * ORDER_JSON_BYTES + FILE_SLACK_BYTES
}

/** What a state file read at start held. */
export type StateRead =
  | { kind: 'missing' }
  | { kind: 'found'; document: { version: typeof STATE_VERSION } & Record<string, unknown> }
  | { kind: 'unusable'; why: string }

/** Paths a state file gives, beside it in its folder. */
function pathsOf(path: string) {
  const dir = dirname(path)
  const base = basename(path)
  return {
    dir,
    base,
    temp: (pid: number) => join(dir, `.${base}.${pid}.tmp`),
    restoring: join(dir, `.${base}.restoring`),
    lock: join(dir, `.${base}.lock`),
  }
}

const codeOf = (error: unknown) => systemErrorCode(error) ?? (error instanceof Error ? error.message : String(error))

/** Refused at start: one line naming the flag, for cli.ts to print as it is. */
function refuse(path: string, why: string): Error {
  return new Error(`Failed to start the simulator: --state-file ${path}: ${why}`)
}

/** A state file path the server can use: text without control characters (it is printed in messages). */
export function checkStatePath(path: unknown): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is refused.
  if (typeof path !== 'string' || path === '' || /[\u0000-\u001f\u007f-\u009f]/.test(path))
    throw new TypeError('Failed to start the simulator: --state-file must be a path of a file, without control characters.')
  return path
}

/**
 * Refuses a state file the server could never write: a folder that does not exist or is no folder, one
 * that cannot be written (a read-only mount: a probe file is made and removed), or a path that is a folder.
 */
export async function checkStateFolder(path: string, fs: StateFs = nodeFs): Promise<void> {
  const { dir, temp } = pathsOf(path)
  let isFolder: boolean
  try {
    isFolder = (await fs.stat(dir)).isDirectory()
  } catch (error) {
    throw refuse(
      path,
      systemErrorCode(error) === 'ENOENT' ? `the folder ${dir} does not exist` : `the folder ${dir} cannot be read (${codeOf(error)})`,
    )
  }
  if (!isFolder) throw refuse(path, `${dir} is not a folder`)
  let stats: Awaited<ReturnType<StateFs['stat']>> | undefined
  try {
    stats = await fs.stat(path)
  } catch (error) {
    if (systemErrorCode(error) !== 'ENOENT') throw refuse(path, `cannot be read (${codeOf(error)})`)
  }
  if (stats !== undefined && !stats.isFile()) throw refuse(path, 'it is a folder or a special file; name a file in a folder')
  // The probe is named as our temp file: should the process die before it is removed, the next start removes it.
  const probe = temp(process.pid)
  try {
    await fs.rm(probe, { force: true })
    await (await fs.open(probe, 'wx', 0o600)).close()
    await fs.rm(probe, { force: true })
  } catch (error) {
    await fs.rm(probe, { force: true }).catch(() => undefined)
    throw refuse(path, `the folder ${dir} cannot be written (${codeOf(error)})`)
  }
}

/** Removes temp files an earlier run of ours left (killed mid-write): `.<base>.<pid>.tmp` beside the file. */
export async function removeLeftoverTemps(path: string, fs: StateFs = nodeFs): Promise<void> {
  const { dir, base } = pathsOf(path)
  const ours = (name: string) => name.startsWith(`.${base}.`) && /^\d+\.tmp$/.test(name.slice(base.length + 2))
  for (const name of (await fs.readdir(dir)).filter(ours)) await fs.rm(join(dir, name), { force: true })
}

/**
 * The state file's document, read to at most `maxBytes` (never more into memory, whatever the file says
 * its size is), parsed, and of this version; `unusable` says why in a few words. A missing file is none.
 */
export async function readStateFile(path: string, maxBytes: number, fs: StateFs = nodeFs): Promise<StateRead> {
  let handle: nodeFs.FileHandle
  try {
    handle = await fs.open(path, 'r')
  } catch (error) {
    return systemErrorCode(error) === 'ENOENT' ? { kind: 'missing' } : { kind: 'unusable', why: `cannot be read: ${codeOf(error)}` }
  }
  let bytes: Uint8Array
  try {
    const { size } = await handle.stat()
    if (size > maxBytes) return { kind: 'unusable', why: tooLarge(maxBytes) }
    // A file may grow while it is read: at most one byte past the bound is read, to know it is past.
    bytes = new Uint8Array(Math.min(size, maxBytes) + 1)
    let length = 0
    for (;;) {
      if (length === bytes.length) {
        if (bytes.length > maxBytes) return { kind: 'unusable', why: tooLarge(maxBytes) }
        const larger = new Uint8Array(Math.min(bytes.length * 2, maxBytes + 1))
        larger.set(bytes)
        bytes = larger
      }
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, null)
      if (bytesRead === 0) break
      length += bytesRead
    }
    bytes = bytes.subarray(0, length)
  } catch (error) {
    return { kind: 'unusable', why: `cannot be read: ${codeOf(error)}` }
  } finally {
    await handle.close().catch(() => undefined)
  }
  return parseStateText(bytes)
}

const MIB = 1024 * 1024
const sizeText = (bytes: number) => (bytes < MIB ? `${bytes} bytes` : `${(bytes / MIB).toFixed(1)} MiB`)
const tooLarge = (maxBytes: number) => `over ${sizeText(maxBytes)}, more than a save of this server writes (--max-session-memory)`

function parseStateText(bytes: Uint8Array): StateRead {
  if (bytes.length === 0) return { kind: 'unusable', why: 'empty' }
  let document: unknown
  try {
    document = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    // The parser's own message quotes the file's text: it says nothing the operator needs, and may hold anything.
    return { kind: 'unusable', why: 'not UTF-8 JSON' }
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document) || !Object.hasOwn(document, 'version'))
    return { kind: 'unusable', why: 'not a state file: no "version"' }
  const { version } = document as { version: unknown }
  if (version !== STATE_VERSION) {
    const shown = typeof version === 'number' && Number.isSafeInteger(version) ? String(version) : 'unknown'
    return { kind: 'unusable', why: `version ${shown}, this server reads version ${STATE_VERSION}` }
  }
  return { kind: 'found', document: document as { version: typeof STATE_VERSION } & Record<string, unknown> }
}

/** Whether a process of this machine runs: signal 0 checks without sending (EPERM: it runs, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return systemErrorCode(error) === 'EPERM'
  }
}

/** Who holds a lock: `<host> <pid>`, as lockState writes it; undefined when it cannot be read as that. */
async function holderOf(lock: string, fs: StateFs): Promise<{ host: string; pid: number } | undefined> {
  try {
    const handle = await fs.open(lock, 'r')
    try {
      const bytes = new Uint8Array(512)
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0)
      const [host, pid] = new TextDecoder().decode(bytes.subarray(0, bytesRead)).trim().split(' ')
      return host !== undefined && /^\d{1,10}$/.test(pid ?? '') ? { host, pid: Number(pid) } : undefined
    } finally {
      await handle.close()
    }
  } catch {
    return undefined
  }
}

/**
 * Takes the file for this server (`.<base>.lock`, holding `<host> <pid>`): a second server of this
 * machine on the same file would overwrite the first one's sessions at each save, so it is refused. A
 * lock whose process is gone (killed) is taken over, as is one of this very pid (a container's PID 1
 * restarted). Servers of other machines sharing a volume cannot be told apart: docs say never to.
 */
export async function lockState(path: string, fs: StateFs = nodeFs, alive: (pid: number) => boolean = running): Promise<void> {
  const { lock } = pathsOf(path)
  const self = { host: hostname(), pid: process.pid }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await fs.open(lock, 'wx', 0o600)
      try {
        await handle.writeFile(`${self.host} ${self.pid}\n`)
      } finally {
        await handle.close()
      }
      return
    } catch (error) {
      if (systemErrorCode(error) !== 'EEXIST') throw refuse(path, `its lock ${lock} cannot be made (${codeOf(error)})`)
    }
    const holder = await holderOf(lock, fs)
    if (holder !== undefined && holder.host === self.host && holder.pid !== self.pid && alive(holder.pid))
      throw refuse(path, `another server (process ${holder.pid}) uses this file; give each server its own`)
    await fs.rm(lock, { force: true })
  }
  throw refuse(path, `its lock ${lock} keeps coming back; is another server starting on this file?`)
}

/** The server stopped: the file is free for the next. */
export async function unlockState(path: string, fs: StateFs = nodeFs): Promise<void> {
  await fs.rm(pathsOf(path).lock, { force: true })
}

/**
 * A mark beside the file while a start restores it (`.<base>.restoring`): a start that dies on the file
 * (a hostile one that exhausts memory) leaves it, and the next start sets the file aside instead of
 * dying again. Resolves with whether an earlier start left one.
 */
export async function markRestoring(path: string, fs: StateFs = nodeFs): Promise<boolean> {
  const { restoring } = pathsOf(path)
  const left = await fs.stat(restoring).then(
    () => true,
    () => false,
  )
  if (!left) await (await fs.open(restoring, 'wx', 0o600)).close()
  return left
}

/** The restore ended, well or not, in this process: the mark goes. */
export async function unmarkRestoring(path: string, fs: StateFs = nodeFs): Promise<void> {
  await fs.rm(pathsOf(path).restoring, { force: true })
}

/**
 * Moves a file that could not be restored out of the way, never deleting it: `<path>.corrupt-<time>`
 * (ISO time, `:` and `.` as `-`). Resolves with the warning line to print; throws a start refusal when
 * it cannot be moved, since the next save would replace it.
 */
export async function setAside(path: string, why: string, now: Date, fs: StateFs = nodeFs): Promise<string> {
  const aside = `${path}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`
  try {
    await fs.rename(path, aside)
  } catch (error) {
    throw refuse(path, `not restored (${why}), and it could not be moved aside (${codeOf(error)}); move it yourself`)
  }
  return `Warning: --state-file ${path} not restored (${why}); starting fresh; moved to ${aside}`
}

/**
 * Writes `text` as the file at `path` whole or not at all: a temp file of this process in the same
 * folder (a rename across devices fails), synced, renamed over the file, then the folder synced so the
 * rename survives a power cut. On failure the temp file is removed and the last good file stays.
 */
export async function writeStateFile(path: string, text: string, fs: StateFs = nodeFs): Promise<void> {
  const { dir, temp } = pathsOf(path)
  const tmp = temp(process.pid)
  let handle: nodeFs.FileHandle | undefined
  try {
    // `wx` never follows a link planted at the temp name; a temp file of ours left by a failure goes first.
    await fs.rm(tmp, { force: true })
    handle = await fs.open(tmp, 'wx', 0o600)
    await handle.writeFile(text)
    await handle.sync()
    await handle.close()
    handle = undefined
    await fs.rename(tmp, path)
  } catch (error) {
    await handle?.close().catch(() => undefined)
    await fs.rm(tmp, { force: true }).catch(() => undefined)
    throw error
  }
  await syncFolder(dir, fs)
}

/** Where a folder cannot be synced (some file systems, Windows) the rename is as durable as it gets. */
async function syncFolder(dir: string, fs: StateFs): Promise<void> {
  const handle = await fs.open(dir, 'r')
  try {
    await handle.sync()
  } catch (error) {
    if (!['EISDIR', 'EPERM', 'EINVAL'].includes(systemErrorCode(error) ?? '')) throw error
  } finally {
    await handle.close()
  }
}

/** A write error in a few words: its code (ENOSPC, EACCES) when it has one. */
export const describeWriteError = codeOf
