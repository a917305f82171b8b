// Builds the `petstore-sim` command: the CLI bundled into one CommonJS module,
// written as its module wrapper (dist/cli.cjs), a small ESM launcher (dist/cli.mjs, the package's bin) and
// the bundle's V8 code cache for this Node's V8 (dist/cli.cjs.v8-<version>.cache),
// made by running the bundle once, in this process, through the paths every
// start takes.
// Run after `tsc -p tsconfig.build.json` (it uses dist/src/cli/code-cache.js).
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
const bundle = `${root}dist/cli.cjs`
const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' }

await build({
  ...common,
  entryPoints: [`${root}src/cli.ts`],
  outfile: bundle,
  format: 'cjs',
  minify: true,
  // import.meta.url, as ESM code expects it (package-root.ts, admin.ts).
  define: { 'import.meta.url': '__import_meta_url' },
  // require-msw.ts reads import.meta.resolve and .require where they exist; in this CommonJS bundle they
  // do not, and it takes createRequire(import.meta.url) (defined above), as it does on a Node without them.
  logOverride: { 'empty-import-meta': 'silent' },
  // The file is the module wrapper itself, a function expression the launcher compiles as read: wrapping it
  // at every start made a second copy of the 1.4 MB source, held until the next full GC (docs/performance.md).
  banner: {
    js: "(function (exports, require, module, __filename, __dirname) {const __import_meta_url = require('node:url').pathToFileURL(__filename).href;",
  },
  footer: { js: '\n})' },
})
await build({ ...common, entryPoints: [`${root}src/cli-launcher.ts`], outfile: `${root}dist/cli.mjs`, format: 'esm' })

const { codeCacheFile, runBundle } = await import(`${root}dist/src/cli/code-cache.js`)
// Caches of an earlier build no longer match the bundle.
for (const file of readdirSync(`${root}dist`)) if (/^cli\.cjs\.v8-.*\.cache$/.test(file)) rmSync(`${root}dist/${file}`)
process.argv = [process.argv[0], bundle, '--port', '0', '--quiet']
const ready = new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('the CLI printed no ready line within 20 s')), 20_000)
  process.stdout.write = (chunk) => {
    const match = /ready at (http:\/\/\S+)/.exec(String(chunk))
    if (match) {
      clearTimeout(timer)
      resolve(match[1])
    }
    return true
  }
})
const script = runBundle(bundle)
const api = await ready
// The requests a first run meets, so that their functions are compiled into
// the cache too. Not the admin API: its code (express) is loaded only when
// used, and a cached function is deserialised at every start, used or not.
const auth = { Authorization: 'Bearer petstore-test-key' }
for (const [method, path, headers] of [
  ['GET', '/store/orders', auth],
  ['DELETE', '/store/orders/1', auth],
  ['DELETE', '/store/orders/999999', auth],
  ['GET', '/store/orders', {}],
]) {
  await (await fetch(`${api}${path}`, { method, headers })).arrayBuffer()
}
writeFileSync(codeCacheFile(bundle), script.createCachedData())
process.exit(0)
