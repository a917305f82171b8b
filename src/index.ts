import { assertSupportedMsw } from './transports/msw/msw-support.js'

// Before anything reaches msw: one clear line if it cannot run here.
assertSupportedMsw()

// The simulator: one instance per test file, suite or server.
export { createSimulator, type Simulator } from './transports/msw/msw-simulator.js'
export type { SessionInfo, SimulatorOptions, SimulatorState, SimulatorView } from './core/simulator/types.js'
export type { Fault, FaultInput } from './core/controls/faults.js'
export type { LatencySettings } from './core/controls/latency.js'
export type { RateLimit } from './core/controls/rate-limit.js'
export type { JournalEntry } from './core/state/journal.js'
export type { SimulatorSnapshot } from './core/simulator/snapshot-schema.js'

// The wire contract and its error codes.
export { ErrorCode } from './core/error-codes.js'
export { openApiDocument } from './contract/openapi-document.js'
export type { ErrorBody, NewOrder, Order, OrderPatch, OrderStatus } from './core/glossary.js'

// Pact contracts from the requests a suite sent, and the provider states they name.
export { PROVIDER_STATES } from './core/pact/parse-provider-state.js'
export type { PactDocument, PactInteraction, PactProviderState } from './core/pact/pact-document.js'
export type { PactOptions } from './core/pact/pact-names.js'
export type { ProviderStateChange } from './core/pact/provider-states.js'
export type {
  Control,
  Coverage,
  CoveredOutcome,
  DeprecatedCalls,
  OutcomeCount,
  ProvokedCount,
  TestOutcomes,
} from './core/outcome-coverage/coverage-counter.js'
export type { Recipe, RecipeStep } from './core/outcome-coverage/outcome-recipes.js'

// Orders that move on their own: the lifecycle, and the simulated clock.
export type { Duration } from './core/lifecycle/duration.js'
export type { LifecycleInput, LifecycleRule } from './core/lifecycle/lifecycle-rule.js'
export type { ClockState, PendingTransition } from './core/lifecycle/order-lifecycle.js'

// Scenarios: the built-in ones, and reading your own.
export type { Scenario } from './core/scenario/scenario.js'
export type { ExportOptions, SavedScenario, SaveOptions } from './core/simulator/scenario-export.js'
export { BUILTIN_SCENARIOS } from './core/scenario/builtin-scenarios.js'
export { loadScenarioFile } from './core/scenario/scenario-file.js'
export { parseScenario } from './core/scenario/parse-scenario.js'
export { isScenarioError, ScenarioError } from './core/scenario/scenario-error.js'
