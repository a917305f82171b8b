import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { startSimulatorServer, type RunningSimulator } from '../src/server.js'
import { send } from './support/raw-http.js'
import { useAppServers } from './support/serve.js'
import { testTime } from './support/test-time.js'

// GET /__sim/health (issue 32): what probes and load balancers call. And the Host check, which admits
// any IP address (a container is reached at the bridge's gateway, 10.88.0.1 under podman) but not a name.

const serve = useAppServers()
const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
const auth = { Authorization: 'Bearer petstore-test-key' }
const running: RunningSimulator[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()))
})

describe.each(['listener', 'express'] as const)('GET /__sim/health (%s)', (via) => {
  test('answers 200 {"status":"ok","version"} with no key, no token and any Host, and nothing else', async () => {
    const { origin } = await serve({ adminToken: 'secret-token', scenario: 'pending' }, via)
    for (const host of [undefined, 'rebind.evil.example', 'petstore-sim.default.svc.cluster.local:4010']) {
      const answer = await send(origin, '/__sim/health', { headers: host === undefined ? {} : { Host: host } })
      expect(answer.status, host).toBe(200)
      expect(JSON.parse(answer.body)).toEqual({ status: 'ok', version })
      expect(answer.headers['cache-control']).toBe('no-store')
    }
    expect((await send(origin, '/__sim/health?probe=1')).status).toBe(200)
  })

  test('answers with the admin API turned off, which still answers 404 elsewhere under /__sim', async () => {
    const { origin } = await serve({ admin: false }, via)
    const health = await fetch(`${origin}/__sim/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok', version })
    expect((await send(origin, '/__sim/state')).status).toBe(404)
  })

  test('another method is a 405 naming GET; a longer path is not the health check', async () => {
    const { origin } = await serve({}, via)
    const answer = await send(origin, '/__sim/health', { method: 'POST' })
    expect(answer.status).toBe(405)
    expect(answer.headers['allow']).toBe('GET')
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'method_not_allowed', status: 405 })
    expect((await send(origin, '/__sim/healthz')).status).toBe(404)
  })
})

describe('the health check of a stopping server', () => {
  test('answers 503 {"status":"draining"} to a request that arrives while requests in flight are finished', async () => {
    const time = testTime()
    const server = await startSimulatorServer({ port: 0, latency: 400, scenario: 'pending', time })
    // One kept-alive connection, as a load balancer's: a slow request in flight, then a health check once the server drains.
    const socket = connect(server.port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString()))
    const ended = new Promise((resolve) => socket.once('close', resolve))
    socket.write('GET /v1/store/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer petstore-test-key\r\n\r\n')
    // In flight: it waits out its latency, which passes only when the test moves the time on.
    await time.untilPending()
    const closed = server.close()
    const checked = new Promise((resolve) => server.server.on('request', (request) => request.url === '/__sim/health' && resolve(null)))
    socket.write('GET /__sim/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    // The health check arrived while the first request was still in flight; only then does that one finish.
    await checked
    time.advance(400)
    await closed
    await ended
    const [first = '', second = ''] = answer.split(/(?=HTTP\/1\.1 )/)
    expect(first).toMatch(/^HTTP\/1\.1 200 /)
    expect(second).toMatch(/^HTTP\/1\.1 503 /)
    expect(second).toContain(`{"status":"draining","version":"${version}"}`)
  })
})

describe('the Host check admits any IP address, and still no name', () => {
  test.each([
    ['10.88.0.1:40123', 200],
    ['172.17.0.1', 200],
    ['[fe80::1]:4010', 200],
    ['[2001:db8::5]', 200],
    ['203.0.113.9:80', 200],
    ['2130706433', 200],
    ['gateway.test:4010', 403],
    ['10.88.0.1.nip.io', 403],
    ['999.1.1.1', 400],
  ])('Host %s: %i on the API and the admin API', async (host, status) => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    expect((await send(origin, '/v1/store/orders', { headers: { Host: host, ...auth } })).status).toBe(status)
    expect((await send(origin, '/__sim/state', { headers: { Host: host } })).status).toBe(status)
    if (status !== 200) expect(sim.journal.entries()).toEqual([])
  })

  test('a server bound to every address answers a Kubernetes Service name only when allowed', async () => {
    const bound = await startSimulatorServer({ port: 0, host: '0.0.0.0', adminToken: 'secret' })
    running.push(bound)
    const origin = `http://127.0.0.1:${bound.port}`
    expect((await send(origin, '/v1/store/orders', { headers: { Host: 'petstore-sim:4010', ...auth } })).status).toBe(403)
    const allowed = await startSimulatorServer({ port: 0, host: '0.0.0.0', adminToken: 'secret', allowedHosts: ['petstore-sim'] })
    running.push(allowed)
    expect(
      (await send(`http://127.0.0.1:${allowed.port}`, '/v1/store/orders', { headers: { Host: 'petstore-sim:4010', ...auth } })).status,
    ).toBe(200)
  })
})
