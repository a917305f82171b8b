import { createServer, type RequestListener, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { AddressInfo } from 'node:net'
import { ApiError, errorReply } from './api-error.js'
import { ErrorCode } from './error-codes.js'
import type { SimulatorAppOptions } from './express-app.js'
import { createFrontDoor, sendReply } from './front-door.js'
import { checkBasePath } from './routes.js'
import { createSimulator, type Simulator } from './simulator.js'

/** The largest header section the server reads; a 16 KB key still gets its 401. */
export const MAX_HEADER_BYTES = 64 * 1024

function writeRawError(socket: Duplex, status: number, reason: string, error: ApiError): void {
  const body = JSON.stringify(error.body)
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
  )
}

/**
 * The Node HTTP server for a listener (a `SimulatorApp`'s, or any express
 * app). Requests Node's parser refuses (oversized or malformed headers) get a
 * JSON Error body too, instead of a bare status line.
 */
export function createHttpServer(listener: RequestListener): Server {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, listener)
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      writeRawError(socket, 431, 'Request Header Fields Too Large', new ApiError(431, ErrorCode.HeadersTooLarge, `The request headers are larger than ${MAX_HEADER_BYTES} bytes.`))
    } else {
      writeRawError(socket, 400, 'Bad Request', new ApiError(400, ErrorCode.InvalidRequest, 'The request is not valid HTTP.'))
    }
  })
  return server
}

export interface StartOptions extends SimulatorAppOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
}

export interface RunningSimulator {
  sim: Simulator
  server: Server
  host: string
  port: number
  /** The base URL of the API, e.g. `http://127.0.0.1:4010/v1`. */
  url: string
  /** Stops accepting connections, lets requests in flight finish, then resolves. */
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
  const listener = createFrontDoor({
    sim,
    app: lazyExpressApp({ ...options, simulator: sim, startedWith: sim.scenario() }),
    admin: options.admin ?? true,
    log: options.log,
    onError: options.onError,
  })
  const host = options.host ?? DEFAULT_HOST
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
          }),
      })
    })
  })
}
