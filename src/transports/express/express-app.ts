import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http'
import express from 'express'
import { errorReporter } from '../../core/dispatch/error-reporter.js'
import { internalsOf } from '../../core/simulator/internals.js'
import { createSimulator, type Simulator } from '../msw/msw-simulator.js'
import { createFrontDoor } from '../node/front-door.js'
import { createHealthCheck } from '../node/health.js'
import { createHostCheck } from '../node/host-check.js'
import { packageVersion } from '../node/package-root.js'
import { createAdminApp } from './admin-app.js'
import { type SimulatorAppOptions, simulatorFor } from './app-options.js'

/**
 * An express application, typed without express's types so that a consumer
 * needs no `@types/express`: a request listener that also takes express's
 * `next`, so `yourApp.use(app)` and `http.createServer(app)` both work.
 */
export interface MountableApp {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void
  /** express's `app.listen`: a Node HTTP server serving this app. */
  listen(port: number, hostname: string, callback?: () => void): Server
}

export interface SimulatorApp {
  /** The whole simulator (API, admin, CORS) as an express app: mount it in your own server if you like. */
  app: MountableApp
  sim: Simulator
  /** The same simulator as a plain Node request listener, as the standalone server serves it. */
  listener: RequestListener
}

/**
 * The simulator as a request listener and as an express app around it: the
 * front door (the API through the dispatcher, CORS, JSON 404s and errors)
 * and the admin API under `/__sim`. Nothing answers HTML.
 *
 * @example
 * const { app, sim } = createSimulatorApp({ scenario: 'shipped' })
 * const server = app.listen(0, '127.0.0.1')
 */
export function createSimulatorApp(options: SimulatorAppOptions = {}): SimulatorApp {
  // msw is loaded only if `sim.handlers` is read: the server answers without it.
  const { sim, basePath } = simulatorFor(options, createSimulator)
  // What the server itself fails at; what the simulator fails at, its own onError is told.
  const report = errorReporter(options.onError)
  const listener = createFrontDoor({
    internals: internalsOf(sim),
    basePath,
    admin: options.admin === false ? null : createAdminApp(sim, { token: options.adminToken, adminOrigins: options.adminOrigins, report }),
    log: options.log,
    report,
    hostCheck: createHostCheck({ allowedHosts: options.allowedHosts }),
    health: createHealthCheck(packageVersion(), () => false),
  })
  const app = express()
  app.disable('x-powered-by')
  app.use((req, res) => listener(req, res))
  return { app, sim, listener }
}
