import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { afterEach } from 'vitest'
import type { AddressInfo } from 'node:net'

/** What the stand-in of the real service saw of one request. */
export interface SeenRequest {
  method: string
  url: string
  /** Node's lower-case header names. */
  headers: IncomingMessage['headers']
  rawHeaders: string[]
  body: Buffer
}

export interface StandIn {
  /** http://127.0.0.1:<port> */
  origin: string
  seen: SeenRequest[]
  /** Resolves when a response is closed before it ended (the proxy gave up on it). */
  aborted: Promise<void>
  close(): Promise<void>
}

/**
 * A local stand-in of the real service: a node:http server on 127.0.0.1,
 * port 0, answering with `handle`. `close` ends every connection, held ones too.
 */
export async function startStandIn(handle: (request: SeenRequest, response: ServerResponse) => void): Promise<StandIn> {
  const seen: SeenRequest[] = []
  let markAborted: () => void = () => {}
  const aborted = new Promise<void>((resolve) => {
    markAborted = resolve
  })
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
      }
      seen.push(request)
      res.on('close', () => {
        if (!res.writableFinished) markAborted()
      })
      handle(request, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    aborted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A port nothing listens on: one a server just had, closed. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/**
 * Returns a function that starts a stand-in (as `startStandIn`) closed after
 * the test, and `stop` to close one early: to see what answers once the real service is gone.
 */
export function useStandIns(): (handle: Parameters<typeof startStandIn>[0]) => Promise<StandIn> {
  const running: StandIn[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((standIn) => standIn.close()))
  })
  return async (handle) => {
    const standIn = await startStandIn(handle)
    running.push(standIn)
    return standIn
  }
}

/** Resolves when a response can take more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done)
      resolve()
    }
    res.on('drain', done).on('close', done)
  })
}

/** Writes `total` bytes of "x" as a chunked body (no Content-Length), heeding backpressure, until done or the client goes. */
export async function streamBytes(res: ServerResponse, total: number, chunkSize = 1024 * 1024): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'application/octet-stream' })
  const chunk = Buffer.alloc(chunkSize, 'x')
  for (let sent = 0; sent < total && !res.destroyed; sent += chunkSize) {
    const piece = total - sent < chunkSize ? chunk.subarray(0, total - sent) : chunk
    if (!res.write(piece)) await drained(res)
  }
  if (!res.destroyed) res.end()
}

/** An answer of the fake service below: status, headers, body. */
type Canned = [status: number, headers: Record<string, string>, body: string]

/**
 * A fake of the real service under /api, for forwarding tests: an inventory
 * (with a session cookie), a create echoing its body, a redirect, a 503,
 * an echo of the Authorization it got (a careless service), and 404 for the rest.
 */
export function fakeService(seen: SeenRequest, res: ServerResponse): void {
  const json = { 'Content-Type': 'application/json' }
  const path = seen.url.split('?')[0] ?? ''
  const sent = seen.headers.authorization ?? ''
  const answers: Record<string, Canned> = {
    'GET /api/store/inventory': [
      200,
      { ...json, 'Set-Cookie': 'sid=staging-session-Hq20vL; Path=/; HttpOnly', 'X-Request-Id': 'r-1' },
      FAKE_INVENTORY,
    ],
    'POST /api/store/orders': [201, json, seen.body.toString('utf8')],
    'GET /api/old-inventory': [302, { Location: '/api/store/inventory' }, ''],
    'GET /api/broken': [503, json, '{"code":"down","message":"down","status":503}'],
    'GET /api/whoami': [200, { ...json, 'X-Echo': sent }, JSON.stringify({ sent })],
  }
  const [status, headers, body] = answers[`${seen.method} ${path}`] ?? [
    404,
    json,
    '{"code":"not_found","message":"no such thing","status":404}',
  ]
  res.writeHead(status, headers).end(body)
}

/** The fake service's inventory, with an int64 past 2^53. */
export const FAKE_INVENTORY = '{"available":3,"sold":9007199254740995}'

/** A handler that never answers, and a promise settled once a request reached it. */
export function neverAnswers(): { handle: (request: SeenRequest, response: ServerResponse) => void; arrived: Promise<void> } {
  let arrive: () => void = () => {}
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve
  })
  return { handle: () => arrive(), arrived }
}
