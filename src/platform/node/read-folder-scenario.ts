import { describe } from '../../core/quote-value.js'
import { systemErrorCode } from '../../core/system-error-code.js'
import { isPlainObject } from '../../core/scenario/plain-object.js'
import type { FileStats, FolderFileSystem } from './folder-file-system.js'
import { isBuiltinScenarioName } from '../../core/scenario/load-scenario.js'
import { parseScenarioJson } from '../../core/scenario/scenario-file.js'
import { parseScenario, type CheckedScenario } from '../../core/scenario/parse-scenario.js'
import { SCENARIO_NAME } from '../../core/scenario/scenario-limits.js'
import { isScenarioError, ScenarioError } from '../../core/scenario/scenario-error.js'

/** The largest file the folder reads, and the largest scenario a save writes (about 40,000 orders). */
export const MAX_FOLDER_FILE_BYTES = 4 * 1024 * 1024

/** What a file is when it is not a regular file, for its error (a folder file's, a HAR's). */
export function kindOf(stats: FileStats): string {
  if (stats.isDirectory()) return 'a folder'
  if (stats.isFIFO()) return 'a named pipe (FIFO)'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  if (stats.isSocket()) return 'a socket'
  return 'a special file'
}

/**
 * The text of a folder file, read so that nothing can block: opened without
 * waiting (a FIFO renamed in after the listing would hold a plain open until a
 * writer came, and with it the server), then checked through that descriptor
 * to be a regular file within `MAX_FOLDER_FILE_BYTES`, and read through it, at
 * most a byte past the bound (it may grow meanwhile). Every read of a folder
 * file goes through here; a `ScenarioError` naming the file says what is wrong.
 */
function readFolderFile(fs: FolderFileSystem, path: string): string {
  let fd: number
  try {
    fd = fs.openNonBlocking(path)
  } catch (error) {
    throw cannotRead(path, error)
  }
  try {
    const stats = fs.fstatSync(fd)
    if (!stats.isFile())
      throw new ScenarioError(path, `it is ${kindOf(stats)}, not a regular file, which a scenario file of the folder must be`)
    if (stats.size > MAX_FOLDER_FILE_BYTES)
      throw new ScenarioError(
        path,
        `the file is ${stats.size} bytes; a scenario file of the folder may be at most ${MAX_FOLDER_FILE_BYTES} bytes`,
      )
    let buffer = new Uint8Array(stats.size + 1)
    let length = 0
    for (;;) {
      if (length === buffer.length) {
        if (length > MAX_FOLDER_FILE_BYTES)
          throw new ScenarioError(path, `the file is over ${MAX_FOLDER_FILE_BYTES} bytes, the most a scenario file of the folder may be`)
        const larger = new Uint8Array(Math.min(buffer.length * 2, MAX_FOLDER_FILE_BYTES + 1))
        larger.set(buffer)
        buffer = larger
      }
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null)
      if (read === 0) break
      length += read
    }
    // As readFileSync(path, 'utf8') decodes: a byte order mark kept, bad bytes replaced.
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(buffer.subarray(0, length))
  } catch (error) {
    throw isScenarioError(error) ? error : cannotRead(path, error)
  } finally {
    try {
      fs.closeSync(fd)
    } catch {
      // Nothing more to do with it: the text is read, or its error said.
    }
  }
}

function cannotRead(path: string, error: unknown): ScenarioError {
  return new ScenarioError(path, `the file cannot be read (${systemErrorCode(error) ?? String(error)})`)
}

/** Reads and checks one file of the folder, its text beside it; a `ScenarioError` naming the file says what is wrong. */
export function readFolderScenario(fs: FolderFileSystem, path: string, name: string): { scenario: CheckedScenario; text: string } {
  if (!SCENARIO_NAME.test(name))
    throw new ScenarioError(
      path,
      'the file name must be a scenario name and .json: 1 to 64 lower-case letters, digits and dashes, such as qa-big.json',
    )
  if (isBuiltinScenarioName(name))
    throw new ScenarioError(
      path,
      `"${name}" is the name of a built-in scenario, which a file of the folder cannot replace; rename the file`,
    )
  const text = readFolderFile(fs, path)
  const value = parseScenarioJson(text, path)
  if (isPlainObject(value)) {
    if (value['name'] === undefined)
      Object.defineProperty(value, 'name', { value: name, enumerable: true, writable: true, configurable: true })
    else if (value['name'] !== name)
      throw new ScenarioError(
        path,
        `its "name" is ${describe(value['name'])}, but the file ${name}.json names it "${name}"; make them the same (or leave "name" out)`,
        'name',
      )
  }
  return { scenario: parseScenario(value, path), text }
}
