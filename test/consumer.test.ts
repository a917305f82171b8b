import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = dirname(dirname(fileURLToPath(import.meta.url)))

test('a consumer outside the repository imports the built package by name and drives it through its own setupServer', () => {
  expect(existsSync(join(root, 'dist/src/index.js')), 'run "npm run build" first (npm test does)').toBe(true)
  const consumer = mkdtempSync(join(tmpdir(), 'petstore-consumer-'))
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ type: 'module', private: true }))
  mkdirSync(join(consumer, 'node_modules'))
  symlinkSync(root, join(consumer, 'node_modules/petstore-orders-simulator'), 'dir')
  symlinkSync(join(root, 'node_modules/msw'), join(consumer, 'node_modules/msw'), 'dir')
  copyFileSync(join(root, 'test/fixtures/consumer.mjs'), join(consumer, 'consumer.mjs'))

  const output = execFileSync(process.execPath, ['consumer.mjs'], { cwd: consumer, encoding: 'utf8', timeout: 30_000 })

  expect(JSON.parse(output)).toEqual({
    pending: 204,
    afterCancel: 'cancelled',
    shipped: [409, 'order_already_shipped'],
    missing: 404,
    badKey: [401, 'unauthorized'],
    errorCodes: 17,
    contract: '1.0.0',
  })
})

test('petstore-orders-simulator/node hands back a simulator and a setupServer holding its handlers', async () => {
  const { setupSimulatorServer } = await import('../src/node.js')
  const { sim, server } = setupSimulatorServer({ scenario: 'shipped' })
  server.listen({ onUnhandledRequest: 'error' })
  try {
    const response = await fetch('https://api.petstore.example/v1/store/orders/1', { method: 'DELETE', headers: { Authorization: 'Bearer petstore-test-key' } })
    expect(response.status).toBe(409)
    expect(sim.orders()[0]?.status).toBe('shipped')
  } finally {
    server.close()
  }
})

test('package.json declares msw as a peer (the consumer\'s own copy builds and runs the handlers) and exports every entry', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string>; dependencies: Record<string, string>; exports: Record<string, unknown> }
  expect(manifest.peerDependencies['msw']).toBe('^2.12.0')
  expect(manifest.dependencies['msw']).toBeUndefined()
  expect(Object.keys(manifest.exports)).toEqual(['.', './node', './browser', './server', './openapi.json', './scenarios/*.json', './package.json'])
})
