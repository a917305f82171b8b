import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
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
