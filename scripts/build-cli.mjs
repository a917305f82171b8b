// Builds the `petstore-sim` command: the CLI bundled into one CommonJS module,
// written as its module wrapper (dist/cli.cjs), express and msw bundled beside it for the express app
// (dist/cli-vendor.cjs), a small ESM launcher (dist/cli.mjs, the package's bin) and
// the bundle's V8 code cache for this Node's V8 (dist/cli.cjs.v8-<version>.cache),
// made by running the bundle once, in this process, through the paths every
// start takes.
// Run after `tsc -p tsconfig.build.json` (it uses dist/src/cli/code-cache.js).
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
const bundle = `${root}dist/cli.cjs`
const vendor = 'cli-vendor.cjs'
const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' }

// express and msw, with their dependencies (two thirds of the code), in a bundle of their own: only the
// express app (admin API, preflight, HEAD, requests with a body) uses them, and a start held the source of
// every bundled module, run or not (docs/performance.md). The CLI's bundle requires this one when the app loads.
await build({
  ...common,
  stdin: {
    // Only what the app uses of msw (a namespace export would keep all of it, graphql too): a new use adds its name here.
    contents: [
      "export { default as express } from 'express'",
      "import { getResponse, http } from 'msw'",
      'export const msw = { getResponse, http }',
    ].join('\n'),
    resolveDir: root,
    sourcefile: 'cli-vendor.js',
  },
  outfile: `${root}dist/${vendor}`,
  format: 'cjs',
  minify: true,
})
const fromVendor = {
  name: 'from-vendor-bundle',
  setup(build) {
    build.onResolve({ filter: /^(express|msw)$/ }, (args) => ({ path: args.path, namespace: 'vendor' }))
    build.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({
      contents: `module.exports = require('./${vendor}').${args.path}`,
      loader: 'js',
    }))
  },
}

await build({
  ...common,
  entryPoints: [`${root}src/cli.ts`],
  outfile: bundle,
  format: 'cjs',
  minify: true,
  plugins: [fromVendor],
  external: [`./${vendor}`],
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
