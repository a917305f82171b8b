import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/index.js'
import { createSimulatorApp } from '../../src/server.js'
import { expectResponseMatchesContract, findOperation } from './contract.js'
import { listen, type Listening } from './serve.js'
import { withUnhandledStrategy } from '../../src/transports/msw/unhandled-requests.js'

/** The production address of the spec; any origin with /v1 is intercepted by default. */
export const API = 'https://api.petstore.example/v1'
export const KEY = 'petstore-test-key'

export interface CallOptions {
  /** The bearer key to send; `null` sends no Authorization header. Default: the test key. */
  key?: string | null
  /** A raw Authorization header value, sent as is (wins over `key`). */
  authorization?: string
  /** The base address to call instead of `API`. */
  base?: string
  /** More headers, appended (so a name may repeat). */
  headers?: [string, string][]
  body?: string
  /** Rewrites the final URL, for paths outside the base such as /V1/... */
  url?: (url: string) => string
}

export interface ApiCall {
  status: number
  headers: Headers
  text: string
  json(): unknown
}

export interface Harness {
  sim: Simulator
  /** The API's base URL on this transport, for raw fetches that skip the contract check. */
  base(): Promise<string>
  /** The fetch this transport is reached with: the global one (msw or HTTP), or `sim.fetch`. */
  fetch: typeof fetch
  request(method: string, path: string, options?: CallOptions): Promise<ApiCall>
  list(options?: CallOptions): Promise<ApiCall>
  cancel(id: string | number | bigint, options?: CallOptions): Promise<ApiCall>
  pet(id: string | number, options?: CallOptions): Promise<ApiCall>
}

/**
 * Every call goes through real `fetch`; every answer from a documented
 * operation is checked against the OpenAPI document before the test sees it.
 */
export function createHarness(sim: Simulator, base: string | Promise<string> = API, send: typeof fetch = fetch): Harness {
  async function request(method: string, path: string, options: CallOptions = {}): Promise<ApiCall> {
    const headers = new Headers()
    const key = options.key === undefined ? KEY : options.key
    if (options.authorization !== undefined) headers.set('Authorization', options.authorization)
    else if (key !== null) headers.set('Authorization', `Bearer ${key}`)
    for (const [name, value] of options.headers ?? []) headers.append(name, value)
    const url = `${options.base ?? (await base)}${path}`
    const response = await send(options.url?.(url) ?? url, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: options.body }),
    })
    const call = { status: response.status, headers: response.headers, text: await response.text() }
    if (options.url === undefined && findOperation(method, path) !== undefined) {
      expectResponseMatchesContract(method, path, call)
    }
    return { ...call, json: () => JSON.parse(call.text) as unknown }
  }
  return {
    sim,
    base: async () => base,
    fetch: send,
    request,
    list: (options) => request('GET', '/store/orders', options),
    cancel: (id, options) => request('DELETE', `/store/orders/${String(id)}`, options),
    pet: (id, options) => request('GET', `/pets/${String(id)}`, options),
  }
}

export type Simulate = (options?: SimulatorOptions) => Harness

/**
 * Registers an msw `setupServer` for the calling test file (or describe
 * block) and returns a factory: each call builds a fresh simulator and puts
 * its handlers in front.
 */
export function useInProcessSimulator(): Simulate {
  const server = setupServer()
  beforeAll(() => server.listen(withUnhandledStrategy(server, {}, 'error')))
  afterEach(() => server.resetHandlers())
  afterAll(() => server.close())
  return (options) => {
    const sim = createSimulator(options)
    server.use(...sim.handlers)
    return createHarness(sim)
  }
}

/** Returns a factory of fresh simulators called through their own `sim.fetch`: no msw, no network. */
export function useSimFetch(): Simulate {
  return (options) => {
    const sim = createSimulator(options)
    return createHarness(sim, API, sim.fetch)
  }
}

/**
 * Returns a factory that serves each fresh simulator from its own standalone
 * server on a free loopback port, closed after each test. Calls go over real
 * HTTP: through the server's listener as `npm start` runs it, or through the
 * express app (`createSimulatorApp().app`, the same front door mounted in
 * express), as someone mounting it in their own app would.
 */
export function useHttpSimulator(via: 'listener' | 'express' = 'listener'): Simulate {
  const servers: Promise<Listening>[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(async (server) => (await server).close()))
  })
  return (options) => {
    const sim = createSimulator({ ...options, baseUrl: '/v1' })
    const { app, listener } = createSimulatorApp({ simulator: sim })
    const server = listen(via === 'express' ? app : listener)
    servers.push(server)
    return createHarness(
      sim,
      server.then(({ origin }) => `${origin}/v1`),
    )
  }
}

/** The ways consumers reach the handlers; behaviour suites run once through each. */
export const TRANSPORTS = [
  { name: 'in process (setupServer)', use: useInProcessSimulator },
  { name: 'in process (sim.fetch)', use: useSimFetch },
  { name: 'over HTTP (standalone server)', use: () => useHttpSimulator('listener') },
  { name: 'over HTTP (createSimulatorApp().app in express)', use: () => useHttpSimulator('express') },
] as const
