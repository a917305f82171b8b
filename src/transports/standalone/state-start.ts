// A start with `stateFile`: the file checked and read before the server listens, its states restored
// (or the file set aside, and a fresh start), then saved while the server runs and on close.
import { checkOptions } from '../../core/simulator/options.js'
import { failInProcess } from '../../core/simulator/simulator.js'
import { internalsOf } from '../../core/simulator/internals.js'
import type { SimulatorSnapshot } from '../../core/simulator/snapshot-schema.js'
import { mapValidation } from '../../core/validation-error.js'
import {
  checkStateFolder,
  checkStatePath,
  lockState,
  markRestoring,
  readStateFile,
  removeLeftoverTemps,
  setAside,
  stateFileBound,
  unlockState,
  unmarkRestoring,
} from '../node/state-file.js'
import { createStateSaver } from '../node/state-saver.js'
import type { RunningSimulator, SimulatorServerOptions } from './server-options.js'

/** What restore said was wrong with a snapshot, from its TypeError; undefined for any other failure to start. */
function restoreRefusal(error: unknown): string | undefined {
  const prefix = 'Failed to create the simulator: restore: '
  return error instanceof TypeError && error.message.startsWith(prefix) ? error.message.slice(prefix.length).replace(/\.$/, '') : undefined
}

const stderrLine = (line: string) => void process.stderr.write(`${line}\n`)

/**
 * Starts through `start` with the states of `options.stateFile` restored, and keeps the file up to date:
 * within 5 s of a change, and on close (first, before requests in flight are waited for, then once more
 * for what they changed). A file that cannot be restored is set aside and the start is fresh.
 */
export async function startWithStateFile(
  options: SimulatorServerOptions,
  start: (options: SimulatorServerOptions) => Promise<RunningSimulator>,
): Promise<RunningSimulator> {
  const path = checkStatePath(options.stateFile)
  if (options.simulator !== undefined || options.restore !== undefined)
    throw new TypeError(
      `Failed to start the simulator: stateFile restores into a simulator the server makes; give it without ${options.simulator === undefined ? 'restore' : 'simulator'}.`,
    )
  const warn = options.onStateWarning ?? stderrLine
  // The bound as the simulator will check it: bad options fail here as they would there.
  const { maxSessionBytes } = mapValidation(
    () => checkOptions(options),
    (error) => failInProcess(error, 'create'),
  )
  await checkStateFolder(path)
  await lockState(path)
  try {
    return await restoredAndSaved(path, options, start, warn, maxSessionBytes)
  } catch (error) {
    await unlockState(path)
    throw error
  }
}

/** The start itself, the file locked for this server: restore (or set aside), then the saver. */
async function restoredAndSaved(
  path: string,
  options: SimulatorServerOptions,
  start: (options: SimulatorServerOptions) => Promise<RunningSimulator>,
  warn: (line: string) => void,
  maxSessionBytes: number,
): Promise<RunningSimulator> {
  await removeLeftoverTemps(path)
  const maxBytes = stateFileBound(maxSessionBytes)
  let running: RunningSimulator | undefined
  let restoredSessions: number | null = null
  if (await markRestoring(path)) {
    // An earlier start died reading or restoring this file: parsing it again would die again.
    warn(await setAside(path, 'a start died while restoring it', new Date()))
    await unmarkRestoring(path)
  } else {
    try {
      const read = await readStateFile(path, maxBytes)
      if (read.kind === 'unusable') warn(await setAside(path, read.why, new Date()))
      if (read.kind === 'found') {
        try {
          // Untrusted until restore has checked it, which it does field by field.
          const restore = read.document as unknown as SimulatorSnapshot
          // A state the file could not give back is said as the file's, like a file set aside.
          const onRestoreWarning = options.onRestoreWarning ?? ((line: string) => warn(`Warning: --state-file ${path}: ${line}`))
          running = await start({ ...options, restore, onRestoreWarning })
          restoredSessions = running.sim.sessions().length
        } catch (error) {
          const why = restoreRefusal(error)
          if (why === undefined) throw error
          warn(await setAside(path, why, new Date()))
        }
      }
    } finally {
      await unmarkRestoring(path)
    }
  }
  running ??= await start(options)
  const { sim, close } = running
  const internals = internalsOf(sim)
  const saver = createStateSaver({
    path,
    maxBytes,
    hasFile: restoredSessions !== null,
    snapshot: () => sim.snapshot(),
    revision: () => internals.stateRevision(),
    warn,
  })
  return {
    ...running,
    restoredSessions,
    async close() {
      saver.stop()
      // Always once at the end: sessions gone idle since the last save change no counter, yet must not come back.
      await saver.flush()
      await close()
      const saved = await saver.flush({ always: true })
      await unlockState(path)
      // A stop that could not save loses what changed since the last write: the exit says so.
      if (!saved) throw new Error(`the state file ${path} could not be written at the end; what changed since its last write is lost`)
    },
  }
}
