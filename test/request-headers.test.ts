import { describe, expect, test } from 'vitest'
import { KEY } from './support/harness.js'
import { exchange, parseRaw } from './support/raw-http.js'
import { useAppServers } from './support/serve.js'

// The server reads headers from the request's raw lines: names in any case, repeated ones joined as Fetch joins them.
describe('request headers on the server', () => {
  const serve = useAppServers()
  const list = (headers: string) => `GET /v1/store/orders HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`

  test('a header name in any case is the same header', async () => {
    const { origin } = await serve()
    expect(parseRaw(await exchange(origin, list(`AUTHORIZATION: Bearer ${KEY}\r\n`))).status).toBe(200)
    expect(parseRaw(await exchange(origin, list(`authorization: Bearer ${KEY}\r\n`))).status).toBe(200)
  })

  test('two Authorization headers are one joined value, which no key matches: 401', async () => {
    const { origin } = await serve()
    const answer = parseRaw(await exchange(origin, list(`Authorization: Bearer ${KEY}\r\nAuthorization: Bearer ${KEY}\r\n`)))
    expect(answer.status).toBe(401)
    expect(answer.body).toMatchObject({ code: 'unauthorized' })
  })

  test('a request whose first Host is foreign is refused, whatever follows', async () => {
    const { origin } = await serve()
    const raw = `GET /v1/store/orders HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`
    expect(parseRaw(await exchange(origin, raw)).status).toBe(403)
  })
})
