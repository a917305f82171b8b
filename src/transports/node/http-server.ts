import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { ApiError, errorReply } from '../../core/api-error.js'
import { ErrorCode } from '../../core/error-codes.js'
import { headersTooLarge, MAX_HEADER_BYTES, notValidHttp } from '../../core/fetch/parser-refusal.js'
import { sendError } from './node-edge.js'

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
}

/** An Error answer written straight to a socket that never became a request (Node's parser refused it). */
function writeRawError(socket: Duplex, error: ApiError): void {
  const { status, headers, body } = errorReply(error, { 'Access-Control-Allow-Origin': '*' })
  const lines = Object.entries({ ...headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' }).map(
    ([name, value]) => `${name}: ${value}\r\n`,
  )
  socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\n${lines.join('')}\r\n${body}`)
}

/**
 * How long a request may take to arrive, bounds for a local test server (Node's own are 60 s for the
 * headers and 300 s for the whole request, for which a few hundred trickling clients hold every descriptor).
 */
const REQUEST_TIMEOUTS = {
  headersTimeout: 15_000,
  requestTimeout: 45_000,
  // How often Node looks for connections past those bounds: its own 30 s would let a bound of 15 s run to 45.
  connectionsCheckingInterval: 1_000,
} as const

type RequestTimeouts = Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'>

const seconds = (ms: number) => `${ms / 1000} s`

/** What Node's parser refused, as the Error to answer; `headersIn` when the request's headers had arrived. */
function parserError(error: NodeJS.ErrnoException, server: Server, headersIn: boolean): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return headersTooLarge()
    case 'ERR_HTTP_REQUEST_TIMEOUT': {
      // Node reports both bounds alike: a request whose headers came had its body too slow.
      const message = headersIn
        ? `The request did not arrive in whole within ${seconds(server.requestTimeout)}.`
        : `The request headers did not arrive within ${seconds(server.headersTimeout)}.`
      return new ApiError(408, ErrorCode.RequestTimeout, message)
    }
    default:
      return notValidHttp()
  }
}

/**
 * A server's open connections and the response each owes: one is owed from
 * the moment its request's headers arrive until it is sent or its connection
 * closes. One listener per connection, none per request; nothing is kept
 * past its connection.
 */
function trackConnections(server: Server) {
  // Each open connection, with the response of its latest request (pipelined requests are answered in order).
  const open = new Map<Duplex, ServerResponse | null>()
  server.on('connection', (socket: Duplex) => {
    open.set(socket, null)
    socket.once('close', () => open.delete(socket))
  })
  const owed = (socket: Duplex): ServerResponse | null => {
    const response = open.get(socket) ?? null
    return response === null || response.writableFinished ? null : response
  }
  return {
    /** Notes the response a request owes; the server's request listener calls it first. */
    arrived(req: IncomingMessage, res: ServerResponse): void {
      open.set(req.socket, res)
    },
    owed,
    /** Closes the connections that owe no response: idle, or still sending a request's headers. */
    closeWaiting() {
      for (const socket of open.keys()) if (owed(socket) === null) socket.destroy()
    },
  }
}

/** A Node HTTP server that can close its waiting connections at shutdown. */
export type HttpServer = Server & {
  /**
   * Closes the connections that have no request in flight (idle, or still
   * sending a request's headers): they would hold a shutdown for the whole
   * grace period. Connections with a request in flight are left to finish.
   */
  closeWaiting(): void
}

/**
 * The Node HTTP server for a listener (a `SimulatorApp`'s, or any express
 * app). What Node itself refuses (oversized or malformed headers, a header
 * timeout, an Expect it cannot meet) gets a JSON Error body too, instead of a
 * bare status line. `timeouts` not given are REQUEST_TIMEOUTS.
 */
export function createHttpServer(listener: RequestListener, timeouts: RequestTimeouts = {}): HttpServer {
  const requestTimeout = timeouts.requestTimeout ?? REQUEST_TIMEOUTS.requestTimeout
  const headersTimeout = timeouts.headersTimeout ?? REQUEST_TIMEOUTS.headersTimeout
  const bounds = {
    requestTimeout,
    // Node refuses headers allowed longer than the whole request: a shorter request bound shortens both.
    headersTimeout: requestTimeout > 0 ? Math.min(headersTimeout, requestTimeout) : headersTimeout,
    connectionsCheckingInterval: timeouts.connectionsCheckingInterval ?? REQUEST_TIMEOUTS.connectionsCheckingInterval,
  }
  // A missing Host is refused by the Host check, with an Error body, rather than by Node with an empty one.
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false, ...bounds })
  const connections = trackConnections(server)
  // One request listener: Node calls a lone listener directly, several through a copied array.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    connections.arrived(req, res)
    listener(req, res)
  })
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const response = connections.owed(socket)
    // An answer already begun cannot be followed by another: its client gets a cut answer instead.
    if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent === true) {
      socket.destroy()
      return
    }
    writeRawError(socket, parserError(error, server, response !== null))
  })
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    sendError(res, new ApiError(417, ErrorCode.ExpectationFailed, 'The server meets only "Expect: 100-continue".'))
  })
  return Object.assign(server, { closeWaiting: connections.closeWaiting })
}
