import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { kindOf } from '../../platform/node/read-folder-scenario.js'
import { systemErrorCode } from '../../core/system-error-code.js'
import { HarImportError } from './har-entries.js'

/** The largest HAR file read, in bytes (UTF-8 takes at least one a character: within it in bytes is within it in characters). */
const MAX_HAR_BYTES = 64 * 1024 * 1024
/** Opened without waiting: a FIFO opens at once rather than when a writer comes. O_NONBLOCK is missing on Windows, which has no FIFOs. */
const READ_NOW = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

const sized = (bytes: number) => `${bytes} bytes${bytes % (1024 * 1024) === 0 ? ` (${bytes / 1024 / 1024} MiB)` : ''}`

/** Reads the opened regular file through `fd`, counting: past `maxBytes` it stops, whatever size the file said it had. */
function readBounded(fd: number, file: string, size: number, maxBytes: number): Uint8Array {
  let buffer = new Uint8Array(Math.min(maxBytes + 1, Math.max(size + 1, 64 * 1024)))
  let length = 0
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) throw new HarImportError(`${file} is over ${sized(maxBytes)}, the largest HAR read.`)
      const larger = new Uint8Array(Math.min(buffer.length * 2, maxBytes + 1))
      larger.set(buffer)
      buffer = larger
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null)
    if (read === 0) return buffer.subarray(0, length)
    length += read
  }
}

/**
 * A HAR file's text, read so that nothing can hold the command or run it out
 * of memory: opened without waiting, checked through that descriptor to be a
 * regular file (a FIFO, a device such as /dev/zero or a folder is refused),
 * and read counting the bytes up to `maxBytes`, as a file may grow, or say a
 * size of 0 (/proc's). A problem is a one-line `HarImportError` (exit 2).
 */
export function readHarFile(file: string, maxBytes = MAX_HAR_BYTES): string {
  let fd: number
  try {
    fd = openSync(file, READ_NOW)
  } catch (error) {
    const code = systemErrorCode(error)
    throw new HarImportError(`Failed to read ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? String(error))}.`)
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw new HarImportError(`Failed to read ${file}: it is ${kindOf(stats)}, not a regular file.`)
    if (stats.size > maxBytes) throw new HarImportError(`${file} is ${stats.size} bytes; the largest HAR read is ${sized(maxBytes)}.`)
    // As readFileSync(file, 'utf8') decodes: a byte order mark kept (importHar drops it), bad bytes replaced.
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(readBounded(fd, file, stats.size, maxBytes))
  } catch (error) {
    if (error instanceof HarImportError) throw error
    throw new HarImportError(`Failed to read ${file}: ${systemErrorCode(error) ?? String(error)}.`)
  } finally {
    try {
      closeSync(fd)
    } catch {
      // Nothing more to do with it: the text is read, or its error said.
    }
  }
}
