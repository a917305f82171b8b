import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { assertSupportedJest, jestProblem } from './jest-support.js'

test('Jest 30 and newer are supported, and so is a Jest that cannot be found', () => {
  for (const version of ['30.0.0', '30.5.2', '31.0.0-alpha.1', null]) expect(jestProblem(version)).toBeNull()
})

test('Jest 29 gets one line naming the version to install', () => {
  expect(jestProblem('29.7.0')).toBe(
    'petstore-orders-simulator: the Jest preset needs Jest 30 or newer, and this is Jest 29.7.0. Install it: npm install --save-dev jest@30.',
  )
})

test('the Jest that reads the preset is the one whose jest-config is loaded', () => {
  // This repository's own Jest: its jest-config, as a module cache would list it.
  const loaded = join(process.cwd(), 'node_modules', 'jest-config', 'build', 'index.js')
  expect(() => assertSupportedJest({ [loaded]: {} })).not.toThrow()
  expect(() => assertSupportedJest({ [`${sep}nowhere${sep}jest-config${sep}build${sep}index.js`]: {} })).not.toThrow()
  expect(() => assertSupportedJest({})).not.toThrow()
})

test('a Jest 29 whose jest-config is loaded is refused with that one line', () => {
  const project = mkdtempSync(join(tmpdir(), 'jest-29-'))
  onTestFinished(() => rmSync(project, { recursive: true, force: true }))
  const folder = join(project, 'node_modules', 'jest-config')
  mkdirSync(join(folder, 'build'), { recursive: true })
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'jest-config', version: '29.7.0' }))
  expect(() => assertSupportedJest({ [join(folder, 'build', 'index.js')]: {} })).toThrow(
    'petstore-orders-simulator: the Jest preset needs Jest 30 or newer, and this is Jest 29.7.0. Install it: npm install --save-dev jest@30.',
  )
})
