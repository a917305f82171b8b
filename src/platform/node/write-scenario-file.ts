import { ApiError } from '../../core/api-error.js'
import { ErrorCode } from '../../core/error-codes.js'
import { systemErrorCode } from '../../core/system-error-code.js'
import type { FolderFileSystem } from './folder-file-system.js'
import { MAX_FOLDER_FILE_BYTES } from './read-folder-scenario.js'

/** Where a filesystem has no hard links, a save without overwrite falls back to a check and a rename. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'])
/** A save's temporary file, `.<name>.json.<uuid>.tmp` (`temporaryName`): hidden, so the folder never lists it. */
const TEMPORARY_FILE = /^\.[a-z0-9][a-z0-9-]{0,63}\.json\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/
/** A temporary file this old is left by a save that never finished (a crash, a kill); a save takes well under a second. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000

function temporaryName(name: string): string {
  return `.${name}.json.${globalThis.crypto.randomUUID()}.tmp`
}

/**
 * Removes the temporary files of saves that never finished (the process
 * killed mid-write) once they are an hour old, so that they cannot fill the
 * disk for good: only regular files of this writer's own naming, nothing else.
 * Younger ones may be a save of another server sharing the folder. Gives the
 * names removed; one that cannot be removed (a read-only folder) is left.
 */
export function removeStaleTemporaryFiles(fs: FolderFileSystem, dir: string, now: number): string[] {
  let names: string[]
  try {
    names = fs.readdirSync(dir)
  } catch {
    return [] // The folder's own checks say why it cannot be read.
  }
  const removed: string[] = []
  for (const name of names.filter((file) => TEMPORARY_FILE.test(file))) {
    const file = fs.join(dir, name)
    try {
      const stats = fs.lstatSync(file)
      if (!stats.isFile() || now - stats.mtimeMs <= STALE_TEMPORARY_MS) continue
      fs.unlinkSync(file)
      removed.push(name)
    } catch {
      // Gone meanwhile, or not ours to remove: a later open tries again.
    }
  }
  return removed
}

function unavailable(dir: string, error: unknown): ApiError {
  const code = systemErrorCode(error)
  const why =
    code === 'EROFS'
      ? 'is read-only'
      : code === 'EACCES' || code === 'EPERM'
        ? 'is not writable by this process'
        : code === 'ENOENT' || code === 'ENOTDIR'
          ? 'no longer exists'
          : code === 'ENOSPC' || code === 'EDQUOT'
            ? 'has no space left'
            : `cannot be written (${code ?? (error instanceof Error ? error.message : String(error))})`
  return new ApiError(
    409,
    ErrorCode.ScenariosDirUnavailable,
    `The scenarios folder ${dir} ${why}: the scenario was not saved, and nothing else changed. ` +
      'Mount or make it writable (a container needs a volume at the folder), then save again.',
  )
}

function scenarioExists(name: string): ApiError {
  return new ApiError(
    409,
    ErrorCode.ScenarioExists,
    `The scenarios folder already has "${name}" (${name}.json); send "overwrite": true to replace it, or pick another name.`,
  )
}

/**
 * Writes scenario files into one folder, whole or not at all: the text goes
 * to a temporary file in the folder, then takes the scenario's name by a
 * hard link (which fails when the name exists, however many processes race)
 * or, to overwrite, a rename. Saves of one name run one after the other.
 */
export function createScenarioWriter(
  fs: FolderFileSystem,
  dir: string,
): (name: string, text: string, overwrite: boolean) => Promise<{ path: string; overwritten: boolean }> {
  // One promise per name being saved; each is removed once its last save is done.
  const running = new Map<string, Promise<unknown>>()
  function exists(path: string): boolean {
    try {
      fs.statSync(path)
      return true
    } catch {
      return false
    }
  }

  async function write(name: string, text: string, overwrite: boolean): Promise<{ path: string; overwritten: boolean }> {
    const bytes = new TextEncoder().encode(text).byteLength
    if (bytes > MAX_FOLDER_FILE_BYTES)
      throw new ApiError(
        409,
        ErrorCode.ScenarioTooLarge,
        `The scenario would be a file of ${bytes} bytes; a scenario file of the folder may be at most ${MAX_FOLDER_FILE_BYTES} bytes. ` +
          'Remove orders first; nothing was saved.',
      )
    const path = fs.join(dir, `${name}.json`)
    const temporary = fs.join(dir, temporaryName(name))
    const existed = exists(path)
    if (existed && !overwrite) throw scenarioExists(name)
    // Set once the temporary file may exist: a failure at any step after it removes it (a partial file on a full disk too).
    let created = false
    try {
      try {
        await fs.writeFile(temporary, text, { flag: 'wx', mode: 0o664 })
      } catch (error) {
        // With 'wx', EEXIST means the file is someone else's: never remove it.
        created = systemErrorCode(error) !== 'EEXIST'
        throw unavailable(dir, error)
      }
      created = true
      if (overwrite) await fs.rename(temporary, path)
      else await fs.link(temporary, path).catch(async (error: unknown) => linkFallback(error, temporary, path, name))
    } catch (error) {
      throw error instanceof ApiError ? error : unavailable(dir, error)
    } finally {
      if (created) await fs.unlink(temporary).catch(() => undefined)
    }
    return { path, overwritten: existed }
  }

  /** A name taken meanwhile is the 409 of an existing scenario; a filesystem without links gets a rename. */
  async function linkFallback(error: unknown, temporary: string, path: string, name: string): Promise<void> {
    const code = systemErrorCode(error)
    if (code === 'EEXIST') throw scenarioExists(name)
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error
    if (exists(path)) throw scenarioExists(name)
    await fs.rename(temporary, path)
  }

  return (name, text, overwrite) => {
    const previous = running.get(name) ?? Promise.resolve()
    const result = previous.then(() => write(name, text, overwrite))
    const settled = result.then(
      () => undefined,
      () => undefined,
    )
    running.set(name, settled)
    void settled.then(() => {
      if (running.get(name) === settled) running.delete(name)
    })
    return result
  }
}
