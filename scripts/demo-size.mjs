// Prints what the demo page's script is made of: its minified size, then each package's share.
// `npm run size:demo`; docs/performance.md has the figures and what was cut.
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { PAGE_SCRIPT_OPTIONS } from './page-build.mjs'

const root = fileURLToPath(new URL('../', import.meta.url))
const result = await build({
  ...PAGE_SCRIPT_OPTIONS,
  entryPoints: [`${root}src/demo/main.ts`],
  write: false,
  metafile: true,
  outdir: `${root}dist/demo-size`,
})
const output = Object.values(result.metafile.outputs).find((candidate) => candidate.entryPoint !== undefined)
const shares = new Map()
for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
  const owner = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? 'this package'
  shares.set(owner, (shares.get(owner) ?? 0) + bytesInOutput)
}
const kb = (bytes) => `${(bytes / 1024).toFixed(1).padStart(7)} KB`
console.log(`${kb(output.bytes)}  dist/demo/main.js (minified, before compression)`)
for (const [owner, bytes] of [...shares].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${kb(bytes)}  ${owner}`)
