import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test, vi } from 'vitest'
import type { Dispatcher } from '../src/core/dispatch/dispatcher.js'
import type { Reply } from '../src/core/reply.js'
import { attachInternals, internalsOf } from '../src/core/simulator/internals.js'
import type { SimulatorOptions } from '../src/core/simulator/types.js'
import { createSimulator, type Simulator } from '../src/index.js'
import { startSimulatorServer } from '../src/server.js'
import { KEY } from './support/harness.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

const serve = useAppServers()

const auth = { Authorization: `Bearer ${KEY}` }

async function expectJsonError(response: Response, status: number, code: string): Promise<void> {
  expect(response.status).toBe(status)
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
  expect(await response.json()).toEqual({ code, message: expect.any(String), status })
}

/** A simulator whose dispatcher answers `path` with `answer` (a throw is a bug the server must answer with 500 and no stack). */
function answeringAt(path: string, answer: () => Reply, options: SimulatorOptions = {}): Simulator {
  const sim = createSimulator(options)
  const internals = internalsOf(sim)
  const route: Dispatcher['route'] = (request, url) => (url.pathname === path ? answer() : internals.dispatcher.route(request, url))
  return attachInternals({ ...sim }, { ...internals, dispatcher: { ...internals.dispatcher, route } })
}

/** A simulator whose answer at GET /v1/boom throws: a bug the server must answer with 500 and no stack. */
function throwingAtBoom(): Simulator {
  return answeringAt('/v1/boom', () => {
    throw new Error('secret stack')
  })
}

describe('answers that are ours', () => {
  test.each(['/nope', '/', '/v2/store/orders', '/V1/store/orders', '/favicon.ico'])(
    'GET %s outside the API gives a JSON 404 not_found',
    async (path) => {
      const { origin } = await serve()
      await expectJsonError(await fetch(`${origin}${path}`), 404, 'not_found')
    },
  )

  test('a known path with another method gives 405 method_not_allowed with Allow', async () => {
    const { origin } = await serve()
    const response = await fetch(`${origin}/v1/store/orders`, { method: 'POST', headers: auth, body: '{}' })
    expect(response.headers.get('Allow')).toBe('GET')
    await expectJsonError(response, 405, 'method_not_allowed')
  })

  test('a body larger than the limit gives 413 payload_too_large, and the order is untouched', async () => {
    const { origin, sim } = await serve({ scenario: 'pending', bodyLimit: 1024 })
    const response = await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: auth, body: 'x'.repeat(2048) })
    await expectJsonError(response, 413, 'payload_too_large')
    expect(sim.orders()[0]?.status).toBe('pending')
  })

  test('a body on GET or DELETE within the limit is ignored', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    expect(
      (
        await fetch(`${origin}/v1/store/orders/1`, {
          method: 'DELETE',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: '{"not":"read"',
        })
      ).status,
    ).toBe(204)
  })

  test("a handler that throws gives a JSON 500 internal_error, never express's HTML page with a stack", async () => {
    const throwing = throwingAtBoom()
    const errors: unknown[] = []
    const { origin } = await serve({ simulator: throwing, onError: (error) => errors.push(error) }, 'express')
    const response = await fetch(`${origin}/v1/boom`)
    const text = await response.text()
    expect(response.status).toBe(500)
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(JSON.parse(text)).toMatchObject({ code: 'internal_error', status: 500 })
    expect(text).not.toMatch(/secret|<html|at /i)
    // The operator's log gets the error the client never sees.
    expect(errors).toEqual([expect.objectContaining({ message: 'secret stack' })])
  })

  test('without onError, what fails inside the server is printed once with console.error, and the client gets no stack', async () => {
    const throwing = throwingAtBoom()
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const { origin } = await serve({ simulator: throwing }, 'express')
      const response = await fetch(`${origin}/v1/boom?x=1`)
      expect(response.status).toBe(500)
      expect(await response.text()).not.toMatch(/secret/)
      expect(printed).toHaveBeenCalledTimes(1)
      expect(printed.mock.calls[0]?.[0]).toMatch(/^petstore-orders-simulator: GET \/v1\/boom\?x=1 failed inside the simulator/)
      expect(printed.mock.calls[0]?.[1]).toMatchObject({ message: 'secret stack' })
    } finally {
      printed.mockRestore()
    }
  })

  test('a handler answering Response.error() resets the connection, and the server keeps serving', async () => {
    const failing = answeringAt('/v1/network-error', () => ({ status: 0, headers: {}, body: null, networkError: 'test' }), {
      scenario: 'missing',
    })
    const { origin } = await serve({ simulator: failing }, 'express')

    await expect(fetch(`${origin}/v1/network-error`)).rejects.toThrow(TypeError)

    const after = await fetch(`${origin}/v1/store/orders`, { headers: auth })
    expect(after.status).toBe(200)
    expect(await after.text()).toBe('[]')
  })

  test('a malformed Host header gets an answer, not a crash', async () => {
    const { origin } = await serve()
    const { port } = new URL(origin)
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/store/orders', headers: { Host: 'bad host[', ...auth } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(400)
    expect((await fetch(`${origin}/v1/store/orders`, { headers: auth })).status).toBe(200)
  })
})

describe('CORS', () => {
  test('every answer carries Access-Control-Allow-Origin and exposes the headers a client reads', async () => {
    const { origin } = await serve()
    for (const [path, headers] of [
      ['/v1/store/orders', auth],
      ['/v1/store/orders', {}],
      ['/nope', {}],
      ['/v1/pets/1', auth],
    ] as const) {
      const response = await fetch(`${origin}${path}`, { headers: { ...headers, Origin: 'http://localhost:5173' } })
      expect(response.headers.get('Access-Control-Allow-Origin'), path).toBe('http://localhost:5173')
      expect(response.headers.get('Access-Control-Expose-Headers')?.split(', ')).toEqual(
        expect.arrayContaining(['Deprecation', 'Sunset', 'Link', 'WWW-Authenticate']),
      )
    }
    expect((await fetch(`${origin}/v1/store/orders`, { headers: auth })).headers.get('Access-Control-Allow-Origin')).toBe('*')
  })

  test('each answer carries its own head, whatever the answer before it carried', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const list = (headers: Record<string, string>) => fetch(`${origin}/v1/store/orders`, { headers })
    const head = async (response: Response) => {
      const body = await response.arrayBuffer()
      expect(response.headers.get('Content-Length')).toBe(String(body.byteLength))
      return {
        status: response.status,
        allowOrigin: response.headers.get('Access-Control-Allow-Origin'),
        credentials: response.headers.get('Access-Control-Allow-Credentials'),
        vary: response.headers.get('Vary'),
        authenticate: response.headers.get('WWW-Authenticate'),
        length: body.byteLength,
      }
    }
    const plain = { status: 200, allowOrigin: '*', credentials: null, vary: null, authenticate: null }
    const first = await head(await list(auth))
    expect(first).toMatchObject(plain)
    expect(await head(await list({ ...auth, Origin: 'http://localhost:5173' }))).toMatchObject({
      allowOrigin: 'http://localhost:5173',
      credentials: 'true',
      vary: 'Origin',
    })
    expect(await head(await list(auth))).toEqual(first)
    expect(await head(await list({ Authorization: 'Bearer not-the-key' }))).toMatchObject({
      status: 401,
      allowOrigin: '*',
      authenticate: 'Bearer',
    })
    expect(await head(await list(auth))).toEqual(first)
    await sim.reset('shipped')
    const shipped = await head(await list(auth))
    expect(shipped).toMatchObject(plain)
    expect(shipped.length).not.toBe(first.length)
  })

  test.each([
    ['/v1/store/orders', 'GET'],
    ['/v1/store/orders/1', 'DELETE'],
    ['/v1/pets/1', 'GET'],
  ])('a preflight for %s answers 204 allowing %s, Authorization and Content-Type, without touching state', async (path, method) => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const response = await fetch(`${origin}${path}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': 'authorization, x-trace-id',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('http://localhost:3000')
    expect(response.headers.get('Access-Control-Allow-Methods')).toBe(method)
    expect(response.headers.get('Access-Control-Allow-Headers')).toBe(
      'Authorization, Content-Type, baggage, traceparent, tracestate, x-trace-id',
    )
    expect(sim.orders().every((order) => order.status === 'pending')).toBe(true)
    expect(sim.journal.entries()).toEqual([])
  })
})

describe('request journal over HTTP', () => {
  test('records what msw answered and what express answered, not admin calls', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    await fetch(`${origin}/v1/store/orders/2`, { method: 'DELETE', headers: auth })
    await fetch(`${origin}/nope`)
    await fetch(`${origin}/__sim/state`)

    expect(
      sim.journal.entries().map(({ method, path, status, operation, orderId }) => ({ method, path, status, operation, orderId })),
    ).toEqual([
      { method: 'DELETE', path: '/v1/store/orders/2', status: 204, operation: 'cancelOrder', orderId: 2 },
      { method: 'GET', path: '/nope', status: 404, operation: null, orderId: null },
    ])
  })
})

test('serves under another base path', async () => {
  const { origin } = await serve({ basePath: '/api/v1', scenario: 'missing' })
  expect(await (await fetch(`${origin}/api/v1/store/orders`, { headers: auth })).text()).toBe('[]')
  await expectJsonError(await fetch(`${origin}/v1/store/orders`, { headers: auth }), 404, 'not_found')
})

describe('startSimulatorServer: express is loaded on the first admin request', () => {
  test('preflights, HEAD, bodies, the admin API and other paths are answered, several at once while it loads', async () => {
    const running = await startSimulatorServer({ port: 0, scenario: 'pending' })
    try {
      const origin = running.url.replace(/\/v1$/, '')
      // All sent before express has loaded: each waits for it, none is lost.
      const [preflight, head, withBody, admin, outside] = await Promise.all([
        fetch(`${running.url}/store/orders`, {
          method: 'OPTIONS',
          headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'GET' },
        }),
        fetch(`${running.url}/store/orders`, { method: 'HEAD', headers: auth }),
        fetch(`${running.url}/store/orders/1`, {
          method: 'DELETE',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: '{"ignored":true}',
        }),
        fetch(`${origin}/__sim/state`),
        fetch(`${origin}/nope`),
      ])
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('Access-Control-Allow-Methods')).toBe('GET')
      expect(preflight.headers.get('Access-Control-Allow-Origin')).toBe('http://app.test')
      expect(head.status).toBe(405)
      expect(head.headers.get('Allow')).toBe('GET')
      expect(withBody.status).toBe(204)
      expect(admin.status).toBe(200)
      expect(((await admin.json()) as { scenario: string }).scenario).toBe('pending')
      await expectJsonError(outside, 404, 'not_found')
      // The state is one: the cancel made through express shows in the fast path's list.
      const list = await fetch(`${running.url}/store/orders`, { headers: auth })
      expect(list.headers.get('Access-Control-Allow-Origin')).toBe('*')
      expect(running.sim.orders()[0]?.status).toBe('cancelled')
      expect((await fetch(`${running.url}/store/orders/1`, { method: 'DELETE', headers: auth })).status).toBe(409)
    } finally {
      await running.close()
    }
  })

  test('a scenario file the server started with stays reachable by name, even after an in-process reset before the first admin call', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-lazy-'))
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
    const file = join(folder, 'mine.json')
    writeFileSync(file, JSON.stringify({ name: 'mine', orders: [{ id: 7, status: 'shipped' }] }))
    const running = await startSimulatorServer({ port: 0, scenario: file })
    try {
      const origin = running.url.replace(/\/v1$/, '')
      running.sim.reset('pending')
      const scenarios = (await (await fetch(`${origin}/__sim/scenarios`)).json()) as { name: string; builtin: boolean; current: boolean }[]
      expect(scenarios.find((scenario) => scenario.name === 'mine')).toMatchObject({ builtin: false, current: false })
      const reset = await fetch(`${origin}/__sim/reset`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"scenario":"mine"}',
      })
      expect(reset.status).toBe(200)
      expect(running.sim.orders()).toEqual([expect.objectContaining({ id: 7, status: 'shipped' })])
    } finally {
      await running.close()
    }
  })
})
