import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'

/** The part of a Vite plugin this one fills, typed here so that using it needs no `vite` types of a given version. */
export interface MockServiceWorkerPlugin {
  name: string
  apply: 'serve'
  configureServer(server: {
    middlewares: { use(path: string, handle: (req: IncomingMessage, res: ServerResponse) => void): unknown }
  }): void
}

/**
 * A Vite plugin that serves msw's worker script at `/mockServiceWorker.js`
 * from the msw installed beside this package, while the dev server runs: what
 * `startSimulatorWorker` registers. Vitest 5's browser mode no longer serves
 * it by itself, and a copy made by `msw init` can drift from the installed msw
 * (a worker of another msw version never answers `worker.stop()`).
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ plugins: [serveMockServiceWorker()], test: { browser: { enabled: true, ... } } })
 * @note Development and tests only (`apply: 'serve'`): a production build still needs `npx msw init public/`.
 */
export function serveMockServiceWorker(): MockServiceWorkerPlugin {
  let script: string
  try {
    // msw 2 and msw 3 both export their worker script by this name.
    script = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')
  } catch {
    throw new Error(
      'petstore-orders-simulator: serveMockServiceWorker() serves the worker script of msw, which is not installed: npm install --save-dev msw.',
    )
  }
  return {
    name: 'petstore-orders-simulator:mock-service-worker',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/mockServiceWorker.js', (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript; charset=utf-8')
        // Read on every request: a reinstalled msw is served without restarting the dev server.
        res.setHeader('Cache-Control', 'no-cache')
        res.end(readFileSync(script))
      })
    },
  }
}
