// Issue 42, section 6: a client that trickles its headers (or its body) may
// hold a connection for seconds, not Node's minute (headers) or five (request).
import type { RequestListener, Server } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { ErrorCode } from '../src/index.js'
import { startSimulatorServer } from '../src/server.js'
import { createHttpServer } from '../src/transports/node/http-server.js'
import { parseRaw } from './support/raw-http.js'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()))
})

async function listening(listener: RequestListener, timeouts: Parameters<typeof createHttpServer>[1]): Promise<number> {
  const server: Server = createHttpServer(listener, timeouts)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  return (server.address() as AddressInfo).port
}

/**
 * Sends `head`, then `next()` every 50 ms until the server closes the
 * connection (or `giveUpMs` pass): what it answered, and whether it was the
 * one to close. Node's own bounds run on the real clock, which is the point
 * here: they are 0.3 s and 0.6 s, the give-up many times that for a busy machine.
 */
function trickle(port: number, head: string, next: () => string, giveUpMs = 8_000): Promise<{ answer: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    let closedByServer = false
    const timer = setInterval(() => socket.write(next()), 50)
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs)
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('end', () => {
      closedByServer = true
      socket.destroy()
    })
    // A line written as the server closes: the answer is what tells.
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(timer)
      clearTimeout(giveUp)
      resolve({ answer, closedByServer })
    })
    socket.write(head)
  })
}

describe('how long a request may take to arrive', () => {
  test('by default, 15 s for the headers and 45 s for the whole request, looked at every second; the standalone server has them', async () => {
    const bounds = { headersTimeout: 15_000, requestTimeout: 45_000, connectionsCheckingInterval: 1_000 }
    const server = createHttpServer(() => undefined)
    expect(server).toMatchObject(bounds)
    const running = await startSimulatorServer({ port: 0, host: '127.0.0.1' })
    cleanups.push(() => running.close())
    expect(running.server).toMatchObject(bounds)
  })

  test('headers sent a line at a time past the bound get 408 with an Error body, and the connection is closed', async () => {
    // Bounds given, but not how often they are looked at: the default must be often enough.
    const port = await listening(() => undefined, { headersTimeout: 300, requestTimeout: 600 })
    let line = 0
    const { answer, closedByServer } = await trickle(port, 'GET /v1/store/orders HTTP/1.1\r\n', () => `X-Trickle-${line++}: a\r\n`)
    expect(closedByServer).toBe(true)
    expect(answer).toMatch(/\r\nConnection: close\r\n/i)
    expect(parseRaw(answer)).toEqual({
      status: 408,
      contentType: 'application/json',
      body: { code: ErrorCode.RequestTimeout, status: 408, message: 'The request headers did not arrive within 0.3 s.' },
    })
  })

  test('a body sent a byte at a time past the request bound gets 408 naming that bound', async () => {
    const whole: RequestListener = (req, res) => {
      req.resume()
      req.on('end', () => res.end('whole'))
    }
    const port = await listening(whole, { headersTimeout: 300, requestTimeout: 600 })
    const head = 'POST /v1/store/order HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n'
    const { answer, closedByServer } = await trickle(port, head, () => ' ')
    expect(closedByServer).toBe(true)
    expect(parseRaw(answer)).toMatchObject({
      status: 408,
      body: { code: ErrorCode.RequestTimeout, message: 'The request did not arrive in whole within 0.6 s.' },
    })
  })
})
