import { assertSupportedMsw } from './msw-support.js'

// Before anything reaches msw: one clear line if it cannot run here.
assertSupportedMsw()
// The standalone server, for suites that start it in code (beforeAll) and for the CLI.
export { DEFAULT_HOST, DEFAULT_PORT, startSimulatorServer } from './server.js'
export type { RunningSimulator, StartOptions } from './server.js'
export { createSimulatorApp } from './express-app.js'
export type { MountableApp, SimulatorApp, SimulatorAppOptions } from './express-app.js'
