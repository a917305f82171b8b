import { randomBytes } from 'node:crypto'
import type { RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ErrorReporter, errorReporter } from '../../core/dispatch/error-reporter.js'
import { internalsOf } from '../../core/simulator/internals.js'
import type { AdminAppOptions } from '../express/admin-app.js'
import { simulatorFor } from '../express/app-options.js'
import type { Simulator } from '../msw/msw-simulator.js'
import { createFrontDoor } from '../node/front-door.js'
import { createHealthCheck } from '../node/health.js'
import { createHostCheck, hostOf, isLoopbackHost } from '../node/host-check.js'
import { createHttpServer } from '../node/http-server.js'
import { sendError } from '../node/node-edge.js'
import { packageVersion } from '../node/package-root.js'
import type { Platform } from '../../core/platform.js'
import { lazyGeneration, withGenerator } from '../../core/scenario/order-generation.js'
import { nodePlatform } from '../../platform/node/node-platform.js'
import { buildSimulator } from '../msw/build-simulator.js'
import { requireMsw } from '../msw/require-msw.js'
import type { RunningSimulator, SimulatorServerOptions } from './server-options.js'
import { startWithStateFile } from './state-start.js'

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', ''])

/** A bind address as a Host header names it: an IPv6 one in brackets. */
const bracketed = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host)

/** Whether a bind address reaches this machine only. */
export function isLoopbackBind(host: string): boolean {
  const name = hostOf(bracketed(host))
  return name !== null && isLoopbackHost(name)
}

export type { RunningSimulator, SimulatorServerOptions } from './server-options.js'

export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'

/**
 * The admin API's express app, loaded on the first admin request: a server
 * that only answers the API never loads express, which saves memory and
 * start-up time (docs/performance.md).
 */
function lazyAdminApp(sim: Simulator, options: AdminAppOptions): RequestListener {
  let app: Promise<RequestListener> | undefined
  return (req, res) => {
    app ??= import('../express/admin-app.js').then(({ createAdminApp }) => createAdminApp(sim, options))
    app.then(
      (listener) => listener(req, res),
      (error: unknown) => {
        options.report(error, { method: req.method ?? '', target: req.url ?? '' })
        sendError(res, error)
      },
    )
  }
}

/** The saved scenario's name, from the Location a save answers with (`/__sim/scenarios/<name>`). */
const SAVED_AT = /^\/__sim\/scenarios\/([a-z0-9][a-z0-9-]*)$/

/**
 * `listener`, telling `onSaved` of each save it answers (200 or 201 to a POST, with the Location of a
 * scenario): the answer says what was written, whatever path spelling reached the save.
 */
function tellingSaves(listener: RequestListener, onSaved: SimulatorServerOptions['onSaved'], report: ErrorReporter): RequestListener {
  if (onSaved === undefined) return listener
  return (req, res) => {
    if (req.method === 'POST')
      res.once('finish', () => {
        const name = SAVED_AT.exec(String(res.getHeader('location') ?? ''))?.[1]
        if (name === undefined || (res.statusCode !== 200 && res.statusCode !== 201)) return
        try {
          onSaved({ name })
        } catch (error) {
          report(error, 'telling onSaved of a save')
        }
      })
    listener(req, res)
  }
}

/** Starts the standalone simulator and resolves once it listens. */
export function startSimulatorServer(options: SimulatorServerOptions = {}): Promise<RunningSimulator> {
  return options.stateFile === undefined ? start(options) : startWithStateFile(options, start)
}

function start(options: SimulatorServerOptions): Promise<RunningSimulator> {
  const generation = lazyGeneration(async () => (await import('../../core/scenario/generate-orders.js')).generateOrders)
  // Faker's code is loaded only for a scenario that generates orders not made ahead of time: then the start is tried again.
  return withGenerator(generation, () => listen(options, nodePlatform(generation)))
}

function listen(options: SimulatorServerOptions, platform: Platform): Promise<RunningSimulator> {
  // The server answers without msw: msw loads only if something reads `sim.handlers` (a user's own msw server).
  const { sim, basePath } = simulatorFor(options, (made) => buildSimulator(made, platform, requireMsw))
  // Its timers are ours to stop only when we made it.
  const ownsSimulator = options.simulator === undefined
  const host = options.host ?? DEFAULT_HOST
  // Not on the loopback: never an open admin API (as Jupyter does, a token made now and printed).
  const adminToken =
    options.admin === false ? null : (options.adminToken ?? (isLoopbackBind(host) ? null : randomBytes(18).toString('base64url')))
  const shutdown = new AbortController()
  // What the server itself fails at; what the simulator fails at, its own onError is told.
  const report = errorReporter(options.onError)
  const admin = {
    token: adminToken ?? undefined,
    adminOrigins: options.adminOrigins,
    startedWith: sim.scenario(),
    shutdown: shutdown.signal,
    report,
  }
  const listener = createFrontDoor({
    internals: internalsOf(sim),
    basePath,
    admin: options.admin === false ? null : tellingSaves(lazyAdminApp(sim, admin), options.onSaved, report),
    log: options.log,
    report,
    // The name a server bound to `host` is reached by as itself (bound to every address, any passes already).
    hostCheck: createHostCheck({ allowedHosts: options.allowedHosts, ownAddresses: WILDCARD_HOSTS.has(host) ? [] : [bracketed(host)] }),
    health: createHealthCheck(packageVersion(), () => shutdown.signal.aborted),
  })
  return new Promise((resolve, reject) => {
    const server = createHttpServer(listener)
    server.listen(options.port ?? DEFAULT_PORT, host)
    server.once('error', reject)
    server.once('listening', () => {
      server.off('error', reject)
      const { port } = server.address() as AddressInfo
      const hostInUrl = host.includes(':') ? `[${host}]` : host
      resolve({
        sim,
        server,
        host,
        port,
        url: `http://${hostInUrl}:${port}${basePath.replace(/\/+$/, '')}`,
        adminToken,
        restoredSessions: null,
        close: () =>
          new Promise<void>((done, fail) => {
            // A keep-alive connection would hold close() open once its request in
            // flight is answered: close connections as soon as they fall idle.
            const sweep = setInterval(() => server.closeIdleConnections(), 50)
            shutdown.abort()
            if (ownsSimulator) sim.close()
            server.close((error) => {
              clearInterval(sweep)
              if (error) fail(error)
              else done()
            })
            server.closeIdleConnections()
            server.closeWaiting()
          }),
      })
    })
  })
}
