import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, type Metafile } from 'esbuild'
import { beforeAll, expect, test } from 'vitest'
import { ROOT } from './support/cli-process.js'

// The two bundles are set-up, made once in beforeAll with its timeout; the tests read what they hold.
let whole: Metafile
let split: Metafile

beforeAll(async () => {
  const bundled = (splitting: boolean) =>
    build({
      entryPoints: [join(ROOT, 'src/browser.ts')],
      bundle: true,
      splitting,
      platform: 'browser',
      format: 'esm',
      ...(splitting && { outdir: join(ROOT, 'dist/browser-entry-test') }),
      // The metafile's paths are relative to it.
      absWorkingDir: ROOT,
      write: false,
      metafile: true,
      logLevel: 'silent',
    })
  const [plain, splitting] = await Promise.all([bundled(false), bundled(true)])
  whole = plain.metafile
  split = splitting.metafile
})

test('the browser entry bundles for the browser with no node: import reachable from it', () => {
  const inputs = Object.keys(whole.inputs)
  expect(inputs.filter((input) => input.startsWith('node:') || /src\/(server|admin|cli|package-root)/.test(input))).toEqual([])
  // The built-in scenarios travel inside the bundle: a browser cannot read the scenarios folder.
  for (const name of ['default', 'pending', 'shipped', 'missing', 'bad-key']) {
    expect(inputs).toContain(`scenarios/${name}.json`)
  }
})

test('package.json maps ./browser for browsers only, so bundlers never pick it for Node', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
  expect(manifest.exports['./browser']).toEqual({ node: null, types: './dist/src/browser.d.ts', default: './dist/src/browser.js' })
})

test('the in-page panel is a chunk of its own: an app that bundles ./browser with splitting loads it only when mountDevtools runs', () => {
  const outputs = Object.values(split.outputs)
  const entry = outputs.find((output) => output.entryPoint === 'src/browser.ts')
  const panel = outputs.find((output) => output.entryPoint === 'src/devtools/mount-devtools.ts')
  expect(Object.keys(entry?.inputs ?? {}).filter((input) => input.startsWith('src/devtools/'))).toEqual([])
  expect(Object.keys(panel?.inputs ?? {})).toContain('src/ui/panel-styles.ts')
  const lazy = entry?.imports.filter((imported) => imported.kind === 'dynamic-import').map((imported) => imported.path) ?? []
  expect(lazy.filter((path) => path.includes('mount-devtools'))).toHaveLength(1)
})
