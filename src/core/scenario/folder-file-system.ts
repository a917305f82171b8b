import { ValidationError } from '../validation-error.js'

interface FileStats {
  isFile(): boolean
  isDirectory(): boolean
  size: number
  mtimeMs: number
  ino: number
}

interface Watcher {
  close(): void
  on(event: 'error', listener: (error: unknown) => void): unknown
  unref(): unknown
}

/** The part of `node:fs` and `node:path` the scenarios folder uses, so the core needs no Node types. */
export interface FolderFileSystem {
  resolve(path: string): string
  join(folder: string, name: string): string
  readdirSync(path: string): string[]
  statSync(path: string): FileStats
  readFileSync(path: string, encoding: 'utf8'): string
  watch(path: string, listener: () => void): Watcher
  writeFile(path: string, text: string, options: { flag: 'wx'; mode: number }): Promise<void>
  rename(from: string, to: string): Promise<void>
  link(from: string, to: string): Promise<void>
  unlink(path: string): Promise<void>
}

type NodeFs = Omit<FolderFileSystem, 'resolve' | 'join' | 'writeFile' | 'rename' | 'link' | 'unlink'> & {
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
  return {
    resolve: (folder) => path.resolve(folder),
    join: (folder, name) => path.join(folder, name),
    readdirSync: (folder) => fs.readdirSync(folder),
    statSync: (file) => fs.statSync(file),
    readFileSync: (file, encoding) => fs.readFileSync(file, encoding),
    watch: (folder, listener) => fs.watch(folder, listener),
    writeFile: (file, text, options) => fs.promises.writeFile(file, text, options),
    rename: (from, to) => fs.promises.rename(from, to),
    link: (from, to) => fs.promises.link(from, to),
    unlink: (file) => fs.promises.unlink(file),
  }
}
