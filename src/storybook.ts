import type { SetupWorker } from 'msw/browser'
import { startSimulatorWorker, type WorkerSimulator, type WorkerSimulatorOptions } from './browser.js'
import { createStoryLoader, type StoryLoader } from './transports/storybook/story-loader.js'
import { checkLoaderOptions } from './transports/storybook/story-parameters.js'

/**
 * Options of the one simulator behind every story. What a story declares
 * (scenario, seed, latency, faults, rateLimit, lifecycle) is not here: it goes
 * in `parameters.petstoreSim`, project-wide in preview.ts or per story.
 */
export type PetstoreSimOptions = Omit<WorkerSimulatorOptions, 'scenario' | 'seed' | 'latency' | 'faults' | 'rateLimit' | 'lifecycle'>

/** A Storybook loader (put it in `loaders`) that also starts the one msw worker. */
export interface PetstoreSimLoader extends StoryLoader<WorkerSimulator> {
  /**
   * Starts the msw worker with the simulator's handlers, once, and resolves
   * with it: the setup function msw-storybook-addon takes, so that there is
   * one worker and the addon's per-story handlers go on top of the simulator's.
   * @example mswLoader(sim.startWorker)
   */
  startWorker(): Promise<SetupWorker>
}

/**
 * The Storybook integration: a loader that gives each story, on every render,
 * exactly the simulator state its `parameters.petstoreSim` declares, fresh.
 * Each call makes its own simulator and worker; call it once, in preview.ts.
 * @example
 * // .storybook/preview.ts
 * import { petstoreSim } from 'petstore-orders-simulator/storybook'
 * export default { loaders: [petstoreSim()] }
 * // a story
 * export const Shipped = { parameters: { petstoreSim: { scenario: 'shipped' } } }
 * @note The worker script must be served: `npx msw init public/` and `staticDirs: ['../public']`.
 */
export function petstoreSim(options: PetstoreSimOptions = {}): PetstoreSimLoader {
  checkLoaderOptions(options)
  let started: Promise<WorkerSimulator> | undefined
  const ready = () => {
    // A failed start is forgotten, so that the next render (say, after the worker script is served) tries again.
    // Quiet unless told otherwise, as msw-storybook-addon starts its worker: a story's requests are not logged.
    started ??= startSimulatorWorker({ ...options, start: { quiet: true, ...options.start } }).catch((error: unknown) => {
      started = undefined
      throw error
    })
    return started
  }
  return Object.assign(createStoryLoader(ready), { startWorker: async () => (await ready()).worker })
}

export { petstoreArgTypes, type PetstoreArgType } from './transports/storybook/arg-types.js'
export type { PetstoreSimArgs, PetstoreSimParameters } from './transports/storybook/story-parameters.js'
export type { PetstoreSimLoaded, StoryContextLike } from './transports/storybook/story-loader.js'
export type { WorkerSimulator } from './browser.js'
