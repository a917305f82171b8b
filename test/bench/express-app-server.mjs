// The simulator's express app alone, as someone mounting createSimulatorApp().app
// in their own server runs it: API requests go through msw's handlers (Fetch
// Request and Response per request) instead of the standalone server's front
// door. Usage: node express-app-server.mjs <scenario-file> <port>
import { createServer } from 'node:http'
import { createSimulatorApp } from '../../dist/src/server.js'

const { app } = createSimulatorApp({ scenario: process.argv[2] })
const server = createServer(app).listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => console.log(`ready ${server.address().port}`))
process.on('SIGTERM', () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
