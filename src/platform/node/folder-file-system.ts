import { ValidationError } from '../../core/validation-error.js'

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
 * The part of `node:fs` and `node:path` the scenarios folder uses, so the core needs no Node types.
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

type NodeFs = Pick<
  FolderFileSystem,
  'readdirSync' | 'statSync' | 'lstatSync' | 'fstatSync' | 'readSync' | 'closeSync' | 'unlinkSync' | 'watch'
> & {
  openSync(path: string, flags: number): number
  // O_NONBLOCK is missing on Windows, which has no FIFOs to wait on.
  constants: { O_RDONLY: number; O_NONBLOCK?: number }
  promises: Pick<FolderFileSystem, 'writeFile' | 'rename' | 'link' | 'unlink'>
}

/**
 * Node's file system, reached through `process.getBuiltinModule` (as
 * load-scenario.ts reads a file) so that the core still bundles for a
 * browser, where a folder cannot be read: there it throws a `ValidationError`.
 */
export function folderFileSystem(): FolderFileSystem {
  const processObject = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  const fs = processObject?.getBuiltinModule?.('node:fs') as NodeFs | undefined
  const path = processObject?.getBuiltinModule?.('node:path') as Pick<FolderFileSystem, 'resolve' | 'join'> | undefined
  if (fs === undefined || path === undefined) {
    throw new ValidationError('scenariosDir', 'scenariosDir needs Node.js: a browser cannot read a folder. Pass scenario objects instead.')
  }
  const readNonBlocking = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0)
  return {
    resolve: (folder) => path.resolve(folder),
    join: (folder, name) => path.join(folder, name),
    readdirSync: (folder) => fs.readdirSync(folder),
    statSync: (file) => fs.statSync(file),
    lstatSync: (file) => fs.lstatSync(file),
    openNonBlocking: (file) => fs.openSync(file, readNonBlocking),
    fstatSync: (fd) => fs.fstatSync(fd),
    readSync: (fd, buffer, offset, length, position) => fs.readSync(fd, buffer, offset, length, position),
    closeSync: (fd) => fs.closeSync(fd),
    unlinkSync: (file) => fs.unlinkSync(file),
    watch: (folder, listener) => fs.watch(folder, listener),
    writeFile: (file, text, options) => fs.promises.writeFile(file, text, options),
    rename: (from, to) => fs.promises.rename(from, to),
    link: (from, to) => fs.promises.link(from, to),
    unlink: (file) => fs.promises.unlink(file),
  }
}
