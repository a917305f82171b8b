import type { FolderFileSystem } from './folder-file-system.js'

/** A burst of changes (an editor's save, a ConfigMap's swap) is read once, this long after the last. */
const DEBOUNCE_MS = 100
/** Where the folder cannot be watched (or went away), it is looked at this often instead. */
const POLL_MS = 2000

/**
 * Calls `look` shortly after the folder changes: watched where it can be,
 * polled every 2 s where it cannot (or is gone, until it is back). One
 * watcher, one timer at most, none keeping the process alive. Its timers are
 * the machine's, not the simulator's time source: they pace the file
 * system's own events, which a test's clock does not move.
 */
export function watchFolder(fs: FolderFileSystem, folder: string, look: () => void) {
  let watcher: ReturnType<FolderFileSystem['watch']> | undefined
  let pending: ReturnType<typeof setTimeout> | undefined
  let poll: ReturnType<typeof setInterval> | undefined
  let closed = false

  function later(): void {
    if (pending !== undefined || closed) return
    pending = setTimeout(() => {
      pending = undefined
      look()
    }, DEBOUNCE_MS)
    pending.unref?.()
  }

  function startWatching(): void {
    try {
      const started = fs.watch(folder, later)
      started.unref()
      started.on('error', () => {
        started.close()
        if (watcher === started) watcher = undefined
        later()
      })
      watcher = started
    } catch {
      // Polled instead.
    }
  }

  return {
    /** After a look: `missing` when the folder could not be read, `replaced` when it is another folder at the same path. */
    follow(missing: boolean, replaced: boolean): void {
      if (closed) return
      if (missing || replaced) {
        watcher?.close()
        watcher = undefined
      }
      if (!missing && watcher === undefined) startWatching()
      const polling = watcher === undefined
      if (polling && poll === undefined) {
        poll = setInterval(look, POLL_MS)
        poll.unref?.()
      } else if (!polling && poll !== undefined) {
        clearInterval(poll)
        poll = undefined
      }
    },
    close() {
      closed = true
      watcher?.close()
      watcher = undefined
      clearTimeout(pending)
      clearInterval(poll)
    },
  }
}
