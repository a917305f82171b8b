import { assertSupportedMsw } from './transports/msw/msw-support.js'

// Before anything reaches msw: one clear line if it cannot run here.
assertSupportedMsw()

// The standalone server, for suites that start it in code (beforeAll) and for the CLI.
export { startSimulatorServer, type RunningSimulator, type SimulatorServerOptions } from './transports/standalone/start-server.js'
export { createSimulatorApp, type MountableApp, type SimulatorApp } from './transports/express/express-app.js'
export type { SimulatorAppOptions } from './transports/express/app-options.js'

// The admin API's contract (everything under /__sim), as GET /__sim/openapi.json serves it.
export { adminOpenApiDocument } from './core/admin/admin-document.js'

// The admin API as a typed client, one method per operation of the admin table.
export { adminClient, AdminError, type AdminClient, type AdminClientOptions } from './core/admin/admin-client.js'
