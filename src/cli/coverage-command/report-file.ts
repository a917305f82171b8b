// Writes `petstore-sim coverage --out <file>`: whole or not at all, so a CI step never reads half a report.
import { randomUUID } from 'node:crypto'
import * as nodeFs from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { systemErrorCode } from '../../core/system-error-code.js'

/** What a refused write says, for the codes a user can act on. */
const PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such folder',
  ENOTDIR: 'a part of its path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  EISDIR: 'it is a folder',
  ENOSPC: 'no space left on the device',
  ENAMETOOLONG: 'the name is too long',
}

/** The file system calls a write makes: node's, or a test's that fails where it is told to. */
export type ReportFs = Pick<typeof nodeFs, 'statSync' | 'lstatSync' | 'writeFileSync' | 'renameSync' | 'rmSync'>

/**
 * Writes `text` to a temporary file beside `file`, then renames it over `file`: a reader sees the old file or the
 * whole new one. The folder is not made: a missing one is more likely a typo than a wish.
 * Returns the one line that says why nothing was written, else undefined.
 */
export function writeReportFile(file: string, text: string, fs: ReportFs = nodeFs): string | undefined {
  const said = (problem: string) => `Failed to write ${file}: ${problem}. Nothing was written.`
  const failed = (error: unknown) => {
    const code = systemErrorCode(error)
    return said((code === undefined ? undefined : PROBLEMS[code]) ?? code ?? String(error))
  }
  try {
    // A rename onto a folder fails with a code that says less (ENOTEMPTY); say it plainly first.
    if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory() === true) return said('it is a folder')
    // A rename would replace a link (or a pipe, a device) with a file instead of writing where it leads.
    const there = fs.lstatSync(file, { throwIfNoEntry: false })
    if (there !== undefined && !there.isFile())
      return said('it is a link or a special file, not a regular file (leave out --out to print the report to standard output)')
  } catch (error) {
    return failed(error)
  }
  // Hidden, and named apart from *.json: a coverage folder's reader never takes it for a coverage file.
  const partial = join(dirname(file), `.${basename(file)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`)
  try {
    // 'wx': never through a link or a file someone placed at that name.
    fs.writeFileSync(partial, text, { flag: 'wx' })
    fs.renameSync(partial, file)
    return undefined
  } catch (error) {
    try {
      fs.rmSync(partial, { force: true })
    } catch {
      // The write's own error is the one to tell; a temporary file that cannot be removed could not be written either.
    }
    return failed(error)
  }
}
