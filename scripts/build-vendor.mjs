// Bundles the order model's library, @msw/data, with what it imports (es-toolkit, mutative, rettime,
// outvariant) into one tree-shaken file, dist/vendor/msw-data.js, and points the built modules at it
// through package.json's "imports" (#msw-data): in Node.js, a test file that imports this package then
// loads one file where it loaded about 560 (es-toolkit's compat barrel alone is 555). A bundler building
// for browsers takes @msw/data itself (the "browser" condition), which it tree-shakes further than this
// file (5 KB less in a page). The bundled packages' licences go in dist/vendor/THIRD-PARTY-LICENSES.txt.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
const vendor = join(root, 'dist/vendor')
const bundled = join(vendor, 'msw-data.js')

if (!existsSync(join(root, 'dist/src'))) throw new Error('Run tsc first: dist/src holds the modules to point at the bundle.')
mkdirSync(vendor, { recursive: true })

const { metafile } = await build({
  stdin: { contents: "export { Collection } from '@msw/data'", resolveDir: root, sourcefile: 'msw-data-entry.js' },
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  target: 'es2022',
  outfile: bundled,
  legalComments: 'inline',
  metafile: true,
  logLevel: 'warning',
})

/** Each bundled package's folder, where esbuild found it (the msw 3 overlay finds them one folder up). */
function packagesOf(metafile) {
  const packages = new Map()
  for (const input of Object.keys(metafile.inputs)) {
    const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(resolve(root, input))
    if (match !== null) packages.set(match[2], match[1])
  }
  return packages
}

/** Each bundled package with its licence text. */
function notices(packages) {
  return [...packages]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, folder]) => {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
      const file = readdirSync(folder).find((entry) => /^(licen[cs]e|copying)(\.|$)/i.test(entry))
      if (file === undefined) throw new Error(`${name} ships no licence file: say where its licence is before bundling it.`)
      return `${name}@${manifest.version} (${manifest.license})\n\n${readFileSync(join(folder, file), 'utf8').trim()}\n`
    })
    .join('\n---\n\n')
}

// The Model Context Protocol SDK, with what it imports (zod, ajv, hono's node adapter), bundled in place of
// the one module that imports it (src/transports/mcp/mcp-sdk.ts): the package does not install it, and it is
// loaded on the first call of /__sim/mcp only. build-cli.mjs bundles the same for the command (dist/cli-mcp.cjs).
const mcpSdk = join(root, 'dist/src/transports/mcp/mcp-sdk.js')
const { metafile: mcpMetafile } = await build({
  stdin: { contents: readFileSync(mcpSdk, 'utf8'), resolveDir: root, sourcefile: 'mcp-sdk-entry.js' },
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  outfile: mcpSdk,
  allowOverwrite: true,
  legalComments: 'inline',
  metafile: true,
  logLevel: 'warning',
  // Some of the SDK's dependencies are CommonJS that requires Node's modules: an ESM bundle needs a require.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
})

// tsc's map described the re-exports the bundle replaced.
rmSync(`${mcpSdk}.map`, { force: true })

writeFileSync(
  join(vendor, 'THIRD-PARTY-LICENSES.txt'),
  `dist/vendor/msw-data.js bundles these packages:\n\n${notices(packagesOf(metafile))}\n===\n\n` +
    `dist/src/transports/mcp/mcp-sdk.js and dist/cli-mcp.cjs bundle these packages:\n\n${notices(packagesOf(mcpMetafile))}`,
)

/** The built modules that import @msw/data (the order model, order-model.ts, is the only one today), pointed at #msw-data. */
function pointAtBundle(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) pointAtBundle(path)
    else if (entry.name.endsWith('.js')) {
      const text = readFileSync(path, 'utf8')
      if (text.includes("from '@msw/data'")) writeFileSync(path, text.replaceAll("from '@msw/data'", "from '#msw-data'"))
    }
  }
}
pointAtBundle(join(root, 'dist/src'))
