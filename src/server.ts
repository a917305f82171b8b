import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { AddressInfo, Socket } from 'node:net'
import { networkInterfaces } from 'node:os'
import { ApiError, errorReply } from './api-error.js'
import { ErrorCode } from './error-codes.js'
import type { SimulatorAppOptions } from './express-app.js'
import { createFrontDoor, sendReply } from './front-door.js'
import { createHostCheck, hostOf, isLoopbackHost } from './host-check.js'
import { checkBasePath } from './routes.js'
import { createSimulator, type Simulator } from './simulator.js'

/** The largest header section the server reads; a 16 KB key still gets its 401. */
export const MAX_HEADER_BYTES = 64 * 1024

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large' }

function writeRawError(socket: Duplex, error: ApiError): void {
  const body = JSON.stringify(error.body)
  socket.end(
    `HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
  )
}

/** What Node's parser refused, as the Error to answer. */
function parserError(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, ErrorCode.HeadersTooLarge, `The request headers are larger than ${MAX_HEADER_BYTES} bytes.`)
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, ErrorCode.RequestTimeout, 'The request headers did not arrive in time.')
    default:
      return new ApiError(400, ErrorCode.InvalidRequest, 'The request is not valid HTTP.')
  }
}

/**
 * The Node HTTP server for a listener (a `SimulatorApp`'s, or any express
 * app). What Node itself refuses (oversized or malformed headers, a header
 * timeout, an Expect it cannot meet) gets a JSON Error body too, instead of a
 * bare status line.
 */
export function createHttpServer(listener: RequestListener, timeouts: Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'> = {}): Server {
  // A missing Host is refused by the Host check, with an Error body, rather than by Node with an empty one.
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false, ...timeouts }, listener)
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    writeRawError(socket, parserError(error))
  })
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    sendReply(res, errorReply(new ApiError(417, ErrorCode.ExpectationFailed, 'The server meets only "Expect: 100-continue".')))
  })
  return server
}

/**
 * Closes the connections that are still sending a request's headers: they
 * have no request in flight, and would hold a shutdown for the whole grace
 * period. Connections with a request in flight are left to finish.
 */
function trackConnections(server: Server): { closeWaiting(): void } {
  const open = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    open.add(socket)
    socket.once('close', () => open.delete(socket))
  })
  return {
    closeWaiting() {
      for (const socket of open) {
        // Node's own mark of the response a connection is writing (unset until a request is read,
        // null between requests), as http-terminator reads it: no per-request listener or reference.
        if ((socket as { _httpMessage?: ServerResponse | null })._httpMessage == null) socket.destroy()
      }
    },
  }
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', ''])

/** The addresses a server bound to `host` is reached by as itself: that one, or every address of this machine for a wildcard. */
function ownAddresses(host: string): string[] {
  if (!WILDCARD_HOSTS.has(host)) return [host.includes(':') && !host.startsWith('[') ? `[${host}]` : host]
  return Object.values(networkInterfaces())
    .flat()
    .filter((address) => address !== undefined)
    .map((address) => (address.family === 'IPv6' ? `[${address.address.replace(/%.*$/, '')}]` : address.address))
}

/** Whether a bind address reaches this machine only. */
export function isLoopbackBind(host: string): boolean {
  const name = hostOf(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host)
  return name !== null && isLoopbackHost(name)
}

export interface StartOptions extends SimulatorAppOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number
  /**
   * Default 127.0.0.1. On an address that is not loopback, the admin API
   * requires a token: `adminToken`, or a random one made at start
   * (`RunningSimulator.adminToken`).
   */
  host?: string
}

export interface RunningSimulator {
  sim: Simulator
  server: Server
  host: string
  port: number
  /** The base URL of the API, e.g. `http://127.0.0.1:4010/v1`. */
  url: string
  /**
   * The token the admin API requires, or null when it requires none: the
   * `adminToken` option, or one made at start because `host` is not loopback.
   */
  adminToken: string | null
  /** Stops accepting connections, closes those still sending headers, lets requests in flight finish, then resolves. */
  close(): Promise<void>
}

export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'

/**
 * The express app, loaded on the first request that needs it (a preflight,
 * the admin API, a path outside the API, an API request with a body or HEAD).
 * A server that only answers the API never loads express: about 13 MB of
 * memory and a sixth of the start-up time saved.
 */
function lazyExpressApp(options: SimulatorAppOptions & { simulator: Simulator }): RequestListener {
  let app: Promise<RequestListener> | undefined
  return (req, res) => {
    app ??= import('./express-app.js').then(({ createSimulatorApp }) => createSimulatorApp(options).app)
    app.then(
      (listener) => listener(req, res),
      (error: unknown) => {
        options.onError?.(error)
        sendReply(res, errorReply(error))
      },
    )
  }
}

/** Starts the standalone simulator and resolves once it listens. */
export function startSimulatorServer(options: StartOptions = {}): Promise<RunningSimulator> {
  const basePath = checkBasePath(options.basePath)
  const sim = options.simulator ?? createSimulator({ ...options, baseUrl: basePath })
  const host = options.host ?? DEFAULT_HOST
  const admin = options.admin ?? true
  // Not on the loopback: never an open admin API (as Jupyter does, a token made now and printed).
  const adminToken = !admin ? null : (options.adminToken ?? (isLoopbackBind(host) ? null : randomBytes(18).toString('base64url')))
  const hostCheck = createHostCheck({ allowedHosts: options.allowedHosts, ownAddresses: ownAddresses(host) })
  const appOptions = { ...options, ...(adminToken === null ? {} : { adminToken }), simulator: sim, startedWith: sim.scenario(), hostCheck }
  const listener = createFrontDoor({ sim, app: lazyExpressApp(appOptions), admin, log: options.log, onError: options.onError, hostCheck })
  return new Promise((resolve, reject) => {
    const server = createHttpServer(listener)
    const connections = trackConnections(server)
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
        close: () =>
          new Promise<void>((done, fail) => {
            // A keep-alive connection would hold close() open once its request in
            // flight is answered: close connections as soon as they fall idle.
            const sweep = setInterval(() => server.closeIdleConnections(), 50)
            server.close((error) => {
              clearInterval(sweep)
              if (error) fail(error)
              else done()
            })
            server.closeIdleConnections()
            connections.closeWaiting()
          }),
      })
    })
  })
}
