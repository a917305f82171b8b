// The standalone server, for suites that start it in code (beforeAll) and for the CLI.
export { createSimulatorApp, DEFAULT_HOST, DEFAULT_PORT, startSimulatorServer } from './server.js'
export type { RunningSimulator, SimulatorApp, SimulatorAppOptions, StartOptions } from './server.js'
