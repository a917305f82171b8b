// The simulator's express app alone, as someone mounting createSimulatorApp().app
// in their own server runs it: express's router before the same front door the
// standalone server runs. Usage: node express-app-server.mjs <scenario-file> <port>
import { createServer } from 'node:http'
import { createSimulatorApp } from '../../dist/src/server.js'

const { app } = createSimulatorApp({ scenario: process.argv[2] })
const server = createServer(app).listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => console.log(`ready ${server.address().port}`))
process.on('SIGTERM', () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
