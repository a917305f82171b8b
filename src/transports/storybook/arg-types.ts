import { BUILTIN_SCENARIOS } from '../../core/scenario/builtin-scenarios.js'

/** One entry of Storybook's `argTypes`, as much of it as these controls use. */
export interface PetstoreArgType {
  name: string
  description: string
  options?: string[]
  control: { type: 'select' } | { type: 'range'; min: number; max: number; step: number }
  table: { category: string }
}

/**
 * Controls for Storybook's Controls panel: `petstoreScenario` (a select of the
 * built-in scenarios) and `petstoreLatency` (ms). Set, they win over the
 * story's `parameters.petstoreSim`; changing one re-renders the story, and
 * the loader applies it from scratch. A new object each call, as Storybook
 * may annotate what it is given.
 * @example
 * const meta = { component: Orders, argTypes: petstoreArgTypes() }
 */
export function petstoreArgTypes(): Record<'petstoreScenario' | 'petstoreLatency', PetstoreArgType> {
  const table = { category: 'petstore simulator' }
  return {
    petstoreScenario: {
      name: 'petstoreScenario',
      description: "The simulator's scenario (overrides parameters.petstoreSim.scenario).",
      options: Object.keys(BUILTIN_SCENARIOS),
      control: { type: 'select' },
      table,
    },
    petstoreLatency: {
      name: 'petstoreLatency',
      description: 'Delay of every answer, in ms (overrides parameters.petstoreSim.latency).',
      control: { type: 'range', min: 0, max: 5000, step: 50 },
      table: { ...table },
    },
  }
}
