import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { TransformOptions } from '@jest/transform'
import { expect, onTestFinished, test } from 'vitest'
import esmToCjs from './esm-to-cjs.js'

/** A package folder with a package.json of `type`, holding `files`; removed once the test is over. */
function packageWith(type: 'module' | 'commonjs', files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), `esm-to-cjs-${type}-`))
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ type }))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true })
    writeFileSync(join(folder, name), text)
  }
  return folder
}

const options = (supportsStaticESM: boolean) => ({ supportsStaticESM, configString: '{}' }) as TransformOptions

/** Runs transformed CommonJS the way Jest does: a function of require, module, exports, __filename, __dirname. */
function runAsCommonJs(code: string, file: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> }
  new Function('require', 'module', 'exports', '__filename', '__dirname', code)(
    createRequire(file),
    module,
    module.exports,
    file,
    join(file, '..'),
  )
  return module.exports
}

test('an ES module of a "type": "module" package becomes CommonJS, import.meta and import() included', async () => {
  const source = [
    "import { join } from 'node:path'",
    'export const url = import.meta.url',
    'export const here = import.meta.dirname',
    "export const joined = join('a', 'b')",
    "export const later = () => import('./other.cjs')",
    'export default 42',
  ].join('\n')
  const folder = packageWith('module', { 'lib/index.js': source, 'lib/other.cjs': 'module.exports = { other: true }' })
  const file = join(folder, 'lib/index.js')
  const transformer = esmToCjs.createTransformer()

  const { code } = transformer.process(source, file, options(false))
  const exported = runAsCommonJs(code, file)

  expect(exported['url']).toBe(pathToFileURL(file).href)
  expect(exported['here']).toBe(join(folder, 'lib'))
  expect(exported['joined']).toBe(join('a', 'b'))
  expect(exported['default']).toBe(42)
  expect(await (exported['later'] as () => Promise<{ other: boolean }>)()).toMatchObject({ other: true })
})

test('.mjs files are ES modules whatever the package says; CommonJS and .cjs files pass through untouched', () => {
  const esm = 'export const a = 1'
  const cjs = 'exports.a = 1'
  const folder = packageWith('commonjs', { 'a.mjs': esm, 'b.js': cjs, 'c.cjs': cjs })
  const transformer = esmToCjs.createTransformer()
  expect(transformer.process(esm, join(folder, 'a.mjs'), options(false)).code).toContain('__export')
  expect(transformer.process(cjs, join(folder, 'b.js'), options(false)).code).toBe(cjs)
  expect(transformer.process(cjs, join(folder, 'c.cjs'), options(false)).code).toBe(cjs)
})

test("in Jest's ES module mode nothing is transformed, and the cache keys of the two modes differ", () => {
  const esm = 'export const a = 1'
  const file = join(packageWith('module', { 'a.js': esm }), 'a.js')
  const transformer = esmToCjs.createTransformer()
  expect(transformer.process(esm, file, options(true)).code).toBe(esm)
  expect(transformer.getCacheKey?.(esm, file, options(true))).not.toBe(transformer.getCacheKey?.(esm, file, options(false)))
  expect(transformer.getCacheKey?.(esm, file, options(false))).toBe(transformer.getCacheKey?.(esm, file, options(false)))
})

test('a module CommonJS cannot express (top-level await) fails with one message naming the file and the way out', () => {
  const source = 'export const a = await Promise.resolve(1)'
  const file = join(packageWith('module', { 'tla.js': source }), 'tla.js')
  expect(() => esmToCjs.createTransformer().process(source, file, options(false))).toThrow(
    new RegExp(
      `cannot turn ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} into CommonJS for Jest \\(Top-level await .*NODE_OPTIONS=--experimental-vm-modules`,
    ),
  )
})
