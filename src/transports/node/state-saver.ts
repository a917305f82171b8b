// Saves the simulator's state to the state file when it changed: polled, never told per request, so a
// request pays nothing for it. A change is on disk within poll + gap + one write (about 3 s).
import { describeWriteError, type StateFs, writeStateFile } from './state-file.js'

/** How often the saver looks at the state's revision. */
const POLL_MS = 1000
/** The least time between the starts of two writes: under load the file is rewritten this often at most. */
const GAP_MS = 2000

export interface StateSaverOptions {
  path: string
  /** The largest file a start reads back (`stateFileBound`): a larger state is not written, and the last good file stays. */
  maxBytes: number
  /** Whether a good file is there already (restored, or set aside: then not): what a failed write says it keeps. */
  hasFile: boolean
  /** The document to write, made at once (synchronously), JSON-safe. */
  snapshot: () => unknown
  /** A number that moves whenever what `snapshot` returns would change. */
  revision: () => number
  /** Told a failed write once (until a write succeeds again), and that recovery. */
  warn: (line: string) => void
  fs?: StateFs
  /** For tests: the clock, and the timer that calls `poll` (default: an unref'd interval of POLL_MS). */
  now?: () => number
  every?: (poll: () => void) => () => void
}

export interface StateSaver {
  /** Writes now when the state changed since the last write, or `always` (after one in progress ends). */
  flush(options?: { always?: boolean }): Promise<boolean>
  /** What the timer calls: a write when the state changed and GAP_MS passed since the last write began. */
  poll(): Promise<void>
  /** Stops the timer; `flush` still writes. */
  stop(): void
}

const unrefInterval = (poll: () => void) => {
  const timer = setInterval(poll, POLL_MS)
  // The saver never keeps a process alive that has nothing else to do.
  timer.unref()
  return () => clearInterval(timer)
}

/** Starts saving; what the file holds now (restored or a fresh start) is taken as written. */
export function createStateSaver(options: StateSaverOptions): StateSaver {
  const { path, maxBytes, snapshot, revision, warn, fs, now = Date.now } = options
  let hasFile = options.hasFile
  let written = revision()
  let began = Number.NEGATIVE_INFINITY
  let writing: Promise<void> | undefined
  let failing = false

  const failed = (error: unknown) => {
    const kept = hasFile ? 'the last good file is kept' : 'no state file is written yet'
    if (!failing) warn(`Failed to write the state file ${path}: ${describeWriteError(error)}; ${kept}`)
    failing = true
  }
  const write = (): Promise<void> => {
    began = now()
    // Read and serialized at once: one consistent state, whatever requests come while the file is written.
    const saving = revision()
    let text: string
    try {
      text = JSON.stringify(snapshot())
    } catch (error) {
      failed(error)
      return Promise.resolve()
    }
    const bytes = Buffer.byteLength(text)
    if (bytes > maxBytes) {
      failed(new Error(`the state is ${bytes} bytes, over the ${maxBytes} a start reads back`))
      return Promise.resolve()
    }
    writing = writeStateFile(path, text, fs)
      .then(() => {
        written = saving
        hasFile = true
        if (failing) warn(`The state file ${path} is written again.`)
        failing = false
      }, failed)
      .finally(() => {
        writing = undefined
      })
    return writing
  }

  const poll = async () => {
    if (writing !== undefined || revision() === written || now() - began < GAP_MS) return
    await write()
  }
  const stopTimer = (options.every ?? unrefInterval)(() => void poll())
  return {
    poll,
    /** Resolves with whether what the state holds now is on disk. */
    async flush({ always = false } = {}) {
      while (writing !== undefined) await writing
      if (always || revision() !== written) await write()
      return !failing
    },
    stop: stopTimer,
  }
}
