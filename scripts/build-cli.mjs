// Builds the `petstore-sim` command: the CLI bundled into one CommonJS module (dist/cli.cjs),
// express bundled beside it for the admin API (dist/cli-vendor.cjs), and a small ESM launcher
// (dist/cli.mjs, the package's bin) that turns on Node's compile cache where there is one.
// The command needs no msw: the build fails if msw found its way into either bundle.
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const vendor = 'cli-vendor.cjs'
const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', metafile: true }

/** A minified CommonJS bundle, dist/<bundle>; fails the build when it holds msw's code: the standalone server answers without it. */
async function bundleWithoutMsw(bundle, options) {
  const { metafile } = await build({ ...common, format: 'cjs', minify: true, outfile: `${root}dist/${bundle}`, ...options })
  const msw = Object.keys(metafile.inputs).filter((input) => /node_modules\/(msw|@mswjs)\//.test(input))
  if (msw.length > 0) throw new Error(`${bundle} bundles msw (${msw[0]}, ...): something the CLI imports imports msw.`)
}

// express with its dependencies (most of the code), in a bundle of their own: only the admin API uses it, and
// a start held the source of every bundled module, run or not (docs/performance.md). The CLI's bundle requires
// this one when the admin API is first called.
await bundleWithoutMsw(vendor, {
  stdin: { contents: "export { default as express } from 'express'", resolveDir: root, sourcefile: 'cli-vendor.js' },
})
const fromVendor = {
  name: 'from-vendor-bundle',
  setup(build) {
    build.onResolve({ filter: /^express$/ }, (args) => ({ path: args.path, namespace: 'vendor' }))
    build.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({
      contents: `module.exports = require('./${vendor}').${args.path}`,
      loader: 'js',
    }))
  },
}

// The Model Context Protocol SDK, for `petstore-sim mcp` and /__sim/mcp, in a bundle of its own for the same
// reason: the CLI's bundle requires it on the first of those calls (src/transports/mcp/mcp-sdk.ts is its one importer).
const mcp = 'cli-mcp.cjs'
await bundleWithoutMsw(mcp, { entryPoints: [`${root}src/transports/mcp/mcp-sdk.ts`] })
const fromMcpBundle = {
  name: 'from-mcp-bundle',
  setup(build) {
    build.onResolve({ filter: /\/mcp-sdk\.js$/ }, () => ({ path: `./${mcp}`, external: true }))
  },
}

await bundleWithoutMsw('cli.cjs', {
  entryPoints: [`${root}src/cli.ts`],
  plugins: [fromVendor, fromMcpBundle],
  external: [`./${vendor}`],
  // import.meta.url, as ESM code expects it (package-root.ts, admin.ts).
  define: { 'import.meta.url': '__import_meta_url' },
  banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  // require-msw.ts reads import.meta.resolve and .require where they exist; in this CommonJS bundle they
  // do not, and it takes createRequire(import.meta.url) (defined above), as it does on a Node without them.
  logOverride: { 'empty-import-meta': 'silent' },
})
await build({ ...common, entryPoints: [`${root}src/cli-launcher.ts`], outfile: `${root}dist/cli.mjs`, format: 'esm' })
