import type { AddressInfo } from 'node:net'
import type { Express } from 'express'
import { afterEach } from 'vitest'
import type { Simulator } from '../../src/index.js'
import { createHttpServer, createSimulatorApp, type SimulatorAppOptions } from '../../src/server.js'

export interface Listening {
  origin: string
  close(): Promise<void>
}

/** Listens on a free loopback port. */
export function listen(app: Express): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = createHttpServer(app).listen(0, '127.0.0.1')
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

/** Returns a function that serves a fresh standalone app per call; every server is closed after the test. */
export function useAppServers(): (options?: SimulatorAppOptions) => Promise<{ origin: string; sim: Simulator }> {
  const running: Listening[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()))
  })
  return async (options = {}) => {
    const { app, sim } = createSimulatorApp(options)
    const server = await listen(app)
    running.push(server)
    return { origin: server.origin, sim }
  }
}
