// A start with `stateFile`: the file checked and read before the server listens, its states restored
// (or the file set aside, and a fresh start), then saved while the server runs and on close.
import { checkOptions } from '../../core/simulator/options.js'
import { failInProcess } from '../../core/simulator/simulator.js'
import { internalsOf } from '../../core/simulator/internals.js'
import type { SimulatorSnapshot } from '../../core/simulator/snapshot-schema.js'
import { mapValidation } from '../../core/validation-error.js'
import { checkStateFolder, checkStatePath, readStateFile, removeLeftoverTemps, setAside } from '../node/state-file.js'
import { createStateSaver } from '../node/state-saver.js'
import type { RunningSimulator, SimulatorServerOptions } from './server-options.js'

/** Room in the file beyond what the sessions may hold: each state's fixed part (options, clock, counts). */
const FILE_SLACK_BYTES = 1024 * 1024

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
  await removeLeftoverTemps(path)
  const read = await readStateFile(path, maxSessionBytes + FILE_SLACK_BYTES)
  if (read.kind === 'unusable') warn(await setAside(path, read.why, new Date()))
  let running: RunningSimulator | undefined
  let restoredSessions: number | null = null
  if (read.kind === 'found') {
    try {
      // Untrusted until restore has checked it, which it does field by field.
      const restore = read.document as unknown as SimulatorSnapshot
      running = await start({ ...options, restore, onRestoreWarning: options.onRestoreWarning ?? warn })
      restoredSessions = running.sim.sessions().length
    } catch (error) {
      const why = restoreRefusal(error)
      if (why === undefined) throw error
      warn(await setAside(path, why, new Date()))
    }
  }
  running ??= await start(options)
  const { sim, close } = running
  const internals = internalsOf(sim)
  const saver = createStateSaver({ path, snapshot: () => sim.snapshot(), revision: () => internals.stateRevision(), warn })
  return {
    ...running,
    restoredSessions,
    async close() {
      saver.stop()
      await saver.flush()
      await close()
      await saver.flush()
    },
  }
}
