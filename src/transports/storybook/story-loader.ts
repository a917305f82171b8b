import type { SimulatorView } from '../../core/simulator/types.js'
import { storyReset } from './story-parameters.js'

/**
 * The part of Storybook's story context a loader reads. Structural, so that
 * this package depends on no Storybook version (9 and 10 both fit).
 */
export interface StoryContextLike {
  parameters?: Record<string, unknown>
  args?: Record<string, unknown>
}

/** What the loader adds to `context.loaded`: the simulator, for play functions to inspect. */
export interface PetstoreSimLoaded<S> {
  petstoreSim: S
}

/** A Storybook loader: runs before every render of every story. */
export type StoryLoader<S> = (context: StoryContextLike) => Promise<PetstoreSimLoaded<S>>

/**
 * A loader that puts the simulator into the state its story declares, from
 * scratch, on every render (opening a story, switching, "Remount", new args).
 * `ready` resolves with the simulator once its transport answers; it is
 * called on every render and must return the same simulator each time.
 */
export function createStoryLoader<S extends Pick<SimulatorView, 'reset' | 'journal'>>(ready: () => Promise<S>): StoryLoader<S> {
  return async (context) => {
    // Checked before waiting for anything, so a bad parameter fails the story at once.
    const { scenario, seed } = storyReset(context.parameters?.['petstoreSim'], context.args)
    const sim = await ready()
    // Storybook may start a render before the last one's loaders are done; the
    // resets still happen in the order the renders began, as they resume in order.
    sim.journal.clear()
    await sim.reset(scenario, { seed })
    return { petstoreSim: sim }
  }
}
