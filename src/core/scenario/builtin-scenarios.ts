// Imported statically, not read from disk, so that the built-in scenarios
// also reach a browser bundle, which cannot list a folder.
import badKey from '../../../scenarios/bad-key.json' with { type: 'json' }
import defaultScenario from '../../../scenarios/default.json' with { type: 'json' }
import flakyNetwork from '../../../scenarios/flaky-network.json' with { type: 'json' }
import missing from '../../../scenarios/missing.json' with { type: 'json' }
import pending from '../../../scenarios/pending.json' with { type: 'json' }
import shipped from '../../../scenarios/shipped.json' with { type: 'json' }
import slowCancel from '../../../scenarios/slow-cancel.json' with { type: 'json' }

/**
 * The raw built-in scenario files, by name. They are checked like any other
 * scenario when loaded.
 */
export const BUILTIN_SCENARIOS = Object.freeze({
  default: defaultScenario as unknown,
  pending: pending as unknown,
  shipped: shipped as unknown,
  missing: missing as unknown,
  'bad-key': badKey as unknown,
  'flaky-network': flakyNetwork as unknown,
  'slow-cancel': slowCancel as unknown,
} as const)

export type BuiltinScenarioName = keyof typeof BUILTIN_SCENARIOS
