import { assertSupportedMsw } from './msw-support.js'

// Before anything reaches msw: one clear line if it cannot run here.
assertSupportedMsw()
// The simulator: one instance per test file, suite or server.
export { createSimulator, DEFAULT_BODY_LIMIT, DEFAULT_DEPRECATION, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_SECONDS, SESSION_HEADER } from './simulator.js'
export type { LoadedScenario, ResetOptions, ResetRequest, SessionInfo, Simulator, SimulatorOptions, SimulatorState, SimulatorView } from './simulator.js'

// Misbehaviour on purpose: latency, faults, rate limits.
export type { Fault, FaultInput, FaultKind, Latency, LatencyInput, LatencySettings, RateLimit } from './controls.js'

// The request journal.
export { DEFAULT_JOURNAL_SIZE } from './journal.js'
export type { JournalEntry, RequestJournal } from './journal.js'
export type { OperationId } from './routes.js'

// Answering from plain values, for servers other than msw (sim.route).
export type { Reply, SimRequest } from './operations.js'

// The wire contract and its error codes.
export { ErrorCode } from './error-codes.js'
export { openApiDocument, type OpenApiDocument } from './contract/openapi-document.js'

// Scenarios: the built-in ones, and reading your own.
export { BUILTIN_SCENARIOS, type BuiltinScenarioName } from './scenario/builtin-scenarios.js'
export { loadScenarioFile, MAX_SCENARIO_FILE_BYTES } from './scenario/load-scenario.js'
export { parseScenario, MAX_ORDERS } from './scenario/parse-scenario.js'
export { isScenarioError, ScenarioError } from './scenario/scenario-error.js'

// Shared types.
export type { AfterCancel, DeprecationDates, ErrorBody, Int64, JsonValue, Order, OrderGenerator, OrderStatus, Scenario, ScenarioOrder } from './glossary.js'
