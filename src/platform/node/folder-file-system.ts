import { closeSync, constants, fstatSync, lstatSync, openSync, promises, readdirSync, readSync, statSync, unlinkSync, watch } from 'node:fs'
import { join, resolve } from 'node:path'

export interface FileStats {
  isFile(): boolean
  isDirectory(): boolean
  isFIFO(): boolean
  isCharacterDevice(): boolean
  isBlockDevice(): boolean
  isSocket(): boolean
  size: number
  mtimeMs: number
  ino: number
}

interface Watcher {
  close(): void
  on(event: 'error', listener: (error: unknown) => void): unknown
  unref(): unknown
}

/**
 * The part of `node:fs` and `node:path` the scenarios folder uses: what a test may stand in for.
 * A file's text is read only through a descriptor from `openNonBlocking` (read-folder-scenario.ts),
 * so that nothing swapped in after a listing can hold the process.
 */
export interface FolderFileSystem {
  resolve(path: string): string
  join(folder: string, name: string): string
  readdirSync(path: string): string[]
  statSync(path: string): FileStats
  /** Stats a link itself, not what it points to. */
  lstatSync(path: string): FileStats
  /** Opens a file to read without waiting: a FIFO or a device opens at once rather than blocking until a writer comes. */
  openNonBlocking(path: string): number
  fstatSync(fd: number): FileStats
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number
  closeSync(fd: number): void
  unlinkSync(path: string): void
  watch(path: string, listener: () => void): Watcher
  writeFile(path: string, text: string, options: { flag: 'wx'; mode: number }): Promise<void>
  rename(from: string, to: string): Promise<void>
  link(from: string, to: string): Promise<void>
  unlink(path: string): Promise<void>
}

// O_NONBLOCK is missing on Windows, which has no FIFOs to wait on.
const READ_NON_BLOCKING = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

/** Node's file system as the scenarios folder uses it; a test wraps it to stage what a race would do. */
export function folderFileSystem(): FolderFileSystem {
  return {
    resolve,
    join,
    readdirSync: (folder) => readdirSync(folder),
    statSync,
    lstatSync,
    openNonBlocking: (file) => openSync(file, READ_NON_BLOCKING),
    fstatSync,
    readSync,
    closeSync,
    unlinkSync,
    watch: (folder, listener) => watch(folder, listener),
    writeFile: promises.writeFile,
    rename: promises.rename,
    link: promises.link,
    unlink: promises.unlink,
  }
}
