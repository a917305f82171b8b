import { createServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

/**
 * Answers no HTTP server library would send, each as the raw bytes a target
 * writes (latin1) before it closes the connection: what a forward must turn
 * into 502 `proxy_bad_answer`, never a crash.
 */
export const HOSTILE_ANSWERS = {
  'bad-name': 'HTTP/1.1 200 OK\r\nBad Name: x\r\nContent-Length: 2\r\n\r\nok',
  'empty-name': 'HTTP/1.1 200 OK\r\n: v\r\nContent-Length: 2\r\n\r\nok',
  'name-with-space-before-colon': 'HTTP/1.1 200 OK\r\nX-Spaced : v\r\nContent-Length: 2\r\n\r\nok',
  'control-char-01': 'HTTP/1.1 200 OK\r\nX-Value: a\x01b\r\nContent-Length: 2\r\n\r\nok',
  'control-char-7f': 'HTTP/1.1 200 OK\r\nX-Value: a\x7fb\r\nContent-Length: 2\r\n\r\nok',
  'twenty-thousand-headers': `HTTP/1.1 200 OK\r\n${Array.from({ length: 20_000 }, (_, index) => `X-H${index}: v\r\n`).join('')}Content-Length: 2\r\n\r\nok`,
  'header-of-100-kib': `HTTP/1.1 200 OK\r\nX-Big: ${'y'.repeat(100 * 1024)}\r\nContent-Length: 2\r\n\r\nok`,
  'broken-chunks': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
  'content-length-past-the-body': 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nshort',
  'not-http': 'this is not an HTTP answer\r\n\r\n',
  'status-600': 'HTTP/1.1 600 Beyond\r\nContent-Length: 2\r\n\r\nok',
  'status-line-only': 'HTTP/1.1 200 OK\r\n',
} as const

export type HostileCase = keyof typeof HOSTILE_ANSWERS

export interface RawTarget {
  /** http://127.0.0.1:<port> */
  origin: string
  close(): Promise<void>
}

/**
 * A raw TCP "target" on 127.0.0.1: for a request to `/<prefix>/<case>` it
 * writes `answers[case]` as it is (or a plain 404) and closes. `close` ends
 * every connection.
 */
export async function startRawTarget(answers: Readonly<Record<string, string>> = HOSTILE_ANSWERS): Promise<RawTarget> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    // The proxy hangs up on a bad answer while it is still being written.
    socket.on('error', () => {})
    let received = ''
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1')
      if (!received.includes('\r\n\r\n')) return
      socket.off('data', onData)
      const path = received.split(' ')[1] ?? ''
      const name = path.slice(path.lastIndexOf('/') + 1)
      const answer = answers[name] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'
      socket.end(Buffer.from(answer, 'latin1'))
    }
    socket.on('data', onData)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
