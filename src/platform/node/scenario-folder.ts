import { ApiError } from '../../core/api-error.js'
import { ErrorCode } from '../../core/error-codes.js'
import { systemErrorCode } from '../../core/system-error-code.js'
import { systemTime } from '../../core/time-source.js'
import { ValidationError } from '../../core/validation-error.js'
import { folderFileSystem, type FolderFileSystem } from './folder-file-system.js'
import type { FolderScenario, ScenarioFolder } from '../../core/platform.js'
import { SCENARIO_NAME } from '../../core/scenario/scenario-limits.js'
import { readFolderScenario } from './read-folder-scenario.js'
import { isScenarioError, ScenarioError } from '../../core/scenario/scenario-error.js'
import { watchFolder } from './folder-watch.js'
import { createScenarioWriter, removeStaleTemporaryFiles } from './write-scenario-file.js'

/** How many `*.json` files of the folder are read, the first by name; the others are left out, said once. */
const MAX_FOLDER_FILES = 1000

interface Entry extends FolderScenario {
  /** Inode, size and modification time: a change of any is read again. */
  signature: string
}

/** The folder's inode, checking that it is one; a `ValidationError` otherwise. */
function folderIdOf(fs: FolderFileSystem, folder: string): number {
  try {
    const stats = fs.statSync(folder)
    if (!stats.isDirectory()) throw new ValidationError('scenariosDir', `scenariosDir ${folder} is a file, not a folder.`)
    return stats.ino
  } catch (error) {
    if (error instanceof ValidationError) throw error
    throw new ValidationError('scenariosDir', `scenariosDir ${folder} cannot be read (${systemErrorCode(error) ?? String(error)}).`)
  }
}

/** A file as the list shows it, read and checked; one that does not load is said through `warn` (once per change). */
function inspect(fs: FolderFileSystem, folder: string, file: string, signature: string, warn: (line: string) => void): Entry {
  const name = file.slice(0, -'.json'.length)
  try {
    const { description } = readFolderScenario(fs, fs.join(folder, file), name).scenario
    return { name, file, description, error: null, line: null, signature }
  } catch (error) {
    if (!isScenarioError(error)) throw error
    warn(`${error.message} The file is listed with this error; the folder's other scenarios work.`)
    return { name, file, description: '', error: error.problem, line: error.line ?? null, signature }
  }
}

/**
 * Opens a scenarios folder: each `*.json` file in it is a scenario named by
 * its file name. The folder is looked at again whenever it is listed or a
 * scenario is loaded from it (cheap: a listing and a stat per file; only a
 * changed file is read), and watched (polled where watching fails) so that a
 * file that stops loading is reported through `warn` when it changes.
 * Temporary files that saves left over an hour ago are removed (said through
 * `warn`). Throws a `ValidationError` when `dir` is not a folder. A test may
 * pass its own `fs` and `now` (the simulator's time source, which ages those files).
 */
export function openScenarioFolder(
  dir: string,
  warn: (line: string) => void,
  { fs = folderFileSystem(), now = systemTime.now }: { fs?: FolderFileSystem; now?: () => number } = {},
): ScenarioFolder {
  const folder = fs.resolve(dir)
  let folderId = folderIdOf(fs, folder)
  const removed = removeStaleTemporaryFiles(fs, folder, now())
  if (removed.length > 0)
    warn(
      `Removed ${removed.length} temporary file(s) of saves that did not finish over an hour ago from the scenarios folder ${folder} (${removed.slice(0, 5).join(', ')}${removed.length > 5 ? ', ...' : ''}).`,
    )
  let entries = new Map<string, Entry>()
  let missing = false
  let saidTooMany = false
  const write = createScenarioWriter(fs, folder)
  const watch = watchFolder(fs, folder, () => scan())

  /** The folder's `*.json` files, or null when it cannot be read (said once, until it is back). */
  function readFolder(): string[] | null {
    let names: string[]
    let replaced = false
    try {
      const id = fs.statSync(folder).ino
      // Removed and made again: a watch follows the old one.
      replaced = id !== folderId
      folderId = id
      names = fs.readdirSync(folder)
    } catch (error) {
      if (!missing)
        warn(
          `The scenarios folder ${folder} cannot be read (${systemErrorCode(error) ?? String(error)}); its scenarios are not offered until it is back.`,
        )
      missing = true
      watch.follow(true, false)
      return null
    }
    if (missing) warn(`The scenarios folder ${folder} is back; its scenarios are offered again.`)
    missing = false
    watch.follow(false, replaced)
    const files = names.filter((file) => file.endsWith('.json') && !file.startsWith('.')).sort()
    if (files.length > MAX_FOLDER_FILES && !saidTooMany)
      warn(`The scenarios folder ${folder} has ${files.length} .json files; only the first ${MAX_FOLDER_FILES} by name are read.`)
    saidTooMany = files.length > MAX_FOLDER_FILES
    return files.slice(0, MAX_FOLDER_FILES)
  }

  /** Looks at the folder again: only a file whose inode, size or time changed is read. */
  function scan(): void {
    const files = readFolder()
    const next = new Map<string, Entry>()
    for (const file of files ?? []) {
      let stats: ReturnType<FolderFileSystem['statSync']>
      try {
        stats = fs.statSync(fs.join(folder, file))
      } catch {
        continue // Gone meanwhile, or a link to nothing.
      }
      if (!stats.isFile()) continue
      const signature = `${stats.ino}:${stats.size}:${stats.mtimeMs}`
      const known = entries.get(file)
      next.set(file, known?.signature === signature ? known : inspect(fs, folder, file, signature, warn))
    }
    entries = next
  }

  scan()
  return {
    dir: folder,
    list() {
      scan()
      return [...entries.values()].map(({ signature: _signature, ...entry }) => entry)
    },
    load(name) {
      if (!SCENARIO_NAME.test(name)) return undefined
      scan()
      const entry = entries.get(`${name}.json`)
      if (entry === undefined) return undefined
      const path = fs.join(folder, entry.file)
      if (entry.error !== null) throw new ScenarioError(path, entry.error, undefined, entry.line ?? undefined)
      return { ...readFolderScenario(fs, path, name), source: path }
    },
    async write(name, text, overwrite) {
      scan()
      if (!missing && !entries.has(`${name}.json`) && entries.size >= MAX_FOLDER_FILES)
        throw new ApiError(
          409,
          ErrorCode.ScenariosDirUnavailable,
          `The scenarios folder ${folder} already holds ${MAX_FOLDER_FILES} scenario files, the most it reads; remove some first. Nothing was saved.`,
        )
      const saved = await write(name, text, overwrite)
      scan()
      return saved
    },
    close: () => watch.close(),
  }
}
