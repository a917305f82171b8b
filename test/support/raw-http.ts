import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** An admin answer checked against the admin OpenAPI document, as the setup file checks fetch's: rejected when it does not match. */
async function checkedAdminAnswer(method: string, path: string, answer: RawAnswer): Promise<RawAnswer> {
  const pathname = path.split('?')[0] ?? ''
  if (pathname !== '/__sim' && !pathname.startsWith('/__sim/')) return answer
  const { adminResponseProblems, countCheck } = await import('./admin-contract.js')
  countCheck(method, pathname, answer.status, 'raw')
  const headers = new Headers()
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one)
  }
  const problems = adminResponseProblems(method, path, { status: answer.status, headers, text: answer.body })
  if (problems.length > 0) {
    throw new Error(
      `${method} ${path} answered ${answer.status}, which does not match the admin document (admin-openapi.json): ${problems.join('; ')}`,
    )
  }
  return answer
}

/**
 * One request with full control of its headers (Host and Origin included,
 * which fetch does not let a caller choose), always sent to `origin`. An
 * answer under /__sim is checked against the admin OpenAPI document.
 */
export function send(
  origin: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        setHost: options.headers?.['Host'] === undefined,
        agent: false,
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => {
          const answer = { status: res.statusCode ?? 0, headers: res.headers, body }
          checkedAdminAnswer(options.method ?? 'GET', path, answer).then(resolve, reject)
        })
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

/** Writes raw bytes to a server and resolves with everything it answers until it closes (or `ms` pass). */
export function exchange(origin: string, text: string, ms = 5000): Promise<string> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let answer = ''
    const timer = setTimeout(() => socket.destroy(), ms)
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(answer)
    })
    socket.write(text)
  })
}

/** The status and JSON body of a raw HTTP answer. */
export function parseRaw(answer: string): { status: number; contentType: string | undefined; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)
  const contentType = /\r\ncontent-type: ([^\r\n]+)/i.exec(head)?.[1]
  return { status, contentType, body: body === '' ? undefined : (JSON.parse(body) as unknown) }
}
