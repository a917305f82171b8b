import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
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

/** What Node's parser refused, as the Error to answer. */
function parserError(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return headersTooLarge()
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, ErrorCode.RequestTimeout, 'The request headers did not arrive in time.')
    default:
      return notValidHttp()
  }
}

/**
 * The Node HTTP server for a listener (a `SimulatorApp`'s, or any express
 * app). What Node itself refuses (oversized or malformed headers, a header
 * timeout, an Expect it cannot meet) gets a JSON Error body too, instead of a
 * bare status line.
 */
export function createHttpServer(
  listener: RequestListener,
  timeouts: Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'> = {},
): Server {
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
    sendError(res, new ApiError(417, ErrorCode.ExpectationFailed, 'The server meets only "Expect: 100-continue".'))
  })
  return server
}

/**
 * Closes the connections that are still sending a request's headers: they
 * have no request in flight, and would hold a shutdown for the whole grace
 * period. Connections with a request in flight are left to finish.
 */
export function trackConnections(server: Server): { closeWaiting(): void } {
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
