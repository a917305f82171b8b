import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import { expect, test } from 'vitest'
import { serveMockServiceWorker } from './vite.js'

test("serves the installed msw's own worker script at /mockServiceWorker.js, uncached, while the dev server runs", () => {
  const plugin = serveMockServiceWorker()
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>()
  plugin.configureServer({ middlewares: { use: (path, handle) => routes.set(path, handle) } })
  const headers = new Map<string, unknown>()
  let body: unknown
  const res = { setHeader: (name: string, value: unknown) => headers.set(name, value), end: (chunk: unknown) => (body = chunk) }

  routes.get('/mockServiceWorker.js')?.({} as IncomingMessage, res as unknown as ServerResponse)

  expect(plugin.apply).toBe('serve')
  expect([...routes.keys()]).toEqual(['/mockServiceWorker.js'])
  expect(headers.get('Content-Type')).toBe('text/javascript; charset=utf-8')
  expect(headers.get('Cache-Control')).toBe('no-cache')
  const installed = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8')
  expect(String(body)).toBe(installed)
  expect(installed).toContain('Mock Service Worker')
})
