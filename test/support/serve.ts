import type { RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeAll } from 'vitest'
import type { Simulator } from '../../src/index.js'
import { createSimulatorApp, type SimulatorAppOptions } from '../../src/server.js'
import { createHttpServer } from '../../src/transports/node/http-server.js'

export interface Listening {
  origin: string
  close(): Promise<void>
}

/** Listens on a free loopback port. */
export function listen(listener: RequestListener): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = createHttpServer(listener).listen(0, '127.0.0.1')
    server.once('error', reject)
    server.once('listening', () =>
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done())
            server.closeAllConnections()
          }),
      }),
    )
  })
}

/**
 * Returns a function that serves a fresh standalone server per call (its
 * listener, as `npm start` serves it, or with `via: 'express'` the express
 * app alone); every server is closed after the test.
 */
export function useAppServers(): (
  options?: SimulatorAppOptions,
  via?: 'listener' | 'express',
) => Promise<{ origin: string; sim: Simulator }> {
  const running: Listening[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()))
  })
  return async (options = {}, via = 'listener') => {
    const { app, sim, listener } = createSimulatorApp(options)
    const server = await listen(via === 'express' ? app : listener)
    running.push(server)
    return { origin: server.origin, sim }
  }
}

/**
 * Loads, in the file's beforeAll, what its first admin answer would otherwise load inside a test: the admin app
 * (express, which a server imports on its first /__sim request) and the setup file's checker of admin answers
 * (ajv and the admin document). About a second on an idle machine, several on a busy one: set-up, not the test's.
 */
export function useAdminApi(): void {
  beforeAll(async () => {
    const server = await listen(createSimulatorApp().listener)
    try {
      await (await fetch(`${server.origin}/__sim/state`)).text()
    } finally {
      await server.close()
    }
  })
}
