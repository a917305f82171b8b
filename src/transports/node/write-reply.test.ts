import { afterAll, beforeAll, expect, test } from 'vitest'
import { send } from '../../../test/support/raw-http.js'
import { listen, type Listening } from '../../../test/support/serve.js'
import type { Reply } from '../../core/reply.js'
import { writeReply } from './write-reply.js'

const CORS = { 'Access-Control-Allow-Origin': '*' }
/** Values Node's writeHead refuses (ERR_INVALID_CHAR), as a route's header could hold them. */
const BAD_VALUES = ['caf\u20ac', 'a\u2028b', 'a\u0001b', 'a\u007fb']

let server: Listening
/** What writeReply returned for each request, in order. */
const returned: (Error | null)[] = []

beforeAll(async () => {
  // /route/<n>: a reply the simulator made with a bad value; /forwarded/<n>: the same as a forwarded answer;
  // /preset/<n>: the same after a header set beforehand; a value past the list: a plain 200.
  server = await listen((req, res) => {
    const [, kind, index] = (req.url ?? '').split('/')
    const value = BAD_VALUES[Number(index)] ?? 'fine'
    const headers: Record<string, string> = kind === 'bad-name' ? { 'Bad Name': 'x' } : { 'Content-Type': 'text/plain', 'X-Route': value }
    const reply: Reply = { status: 200, headers, body: 'hello', ...(kind === 'forwarded' ? { setCookie: ['a=1'] } : {}) }
    // As express does before any handler runs: Node then sets the reply's headers one by one, up to the refused one.
    if (kind === 'preset') res.setHeader('X-Powered-By', 'Express')
    returned.push(writeReply(res, reply, CORS))
  })
}, 10_000)

afterAll(() => server.close())

test('a reply whose header Node refuses is answered 500 internal_error with its CORS headers, and the server goes on', async () => {
  for (const path of [...BAD_VALUES.map((_, index) => `/route/${index}`), '/bad-name/0']) {
    returned.length = 0
    const answer = await send(server.origin, path)
    expect([answer.status, JSON.parse(answer.body).code], path).toEqual([500, 'internal_error'])
    expect(answer.headers['access-control-allow-origin'], path).toBe('*')
    expect(answer.headers['x-route'], path).toBeUndefined()
    // Returned for the caller to report: a 500 is a bug of whatever made the reply.
    expect(returned[0], path).toBeInstanceOf(TypeError)
  }
  const fine = await send(server.origin, '/route/none')
  expect([fine.status, fine.body, fine.headers['x-route']]).toEqual([200, 'hello', 'fine'])
  expect(returned.at(-1)).toBeNull()
})

test('headers set before the reply are kept, and none of the refused reply is left', async () => {
  const answer = await send(server.origin, '/preset/0')
  expect([answer.status, answer.headers['x-powered-by'], answer.headers['content-type'], answer.headers['x-route']]).toEqual([
    500,
    'Express',
    'application/json',
    undefined,
  ])
})

test('a forwarded answer Node refuses is answered 502 proxy_bad_answer', async () => {
  const answer = await send(server.origin, '/forwarded/2')
  expect([answer.status, JSON.parse(answer.body).code, answer.headers['set-cookie']]).toEqual([502, 'proxy_bad_answer', undefined])
})
