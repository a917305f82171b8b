// Prints what the demo page's script is made of: its minified size, then each package's share.
// `npm run size:demo`; docs/performance.md has the figures and what was cut.
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { PAGE_SCRIPT_OPTIONS } from './page-build.mjs'

const root = fileURLToPath(new URL('../', import.meta.url))
const result = await build({
  ...PAGE_SCRIPT_OPTIONS,
  entryPoints: [`${root}src/demo/main.ts`],
  // As scripts/build-demo.mjs builds it: the in-page panel (?devtools) is a chunk of its own, not counted here.
  splitting: true,
  write: false,
  metafile: true,
  outdir: `${root}dist/demo-size`,
})
const output = Object.values(result.metafile.outputs).find((candidate) => candidate.entryPoint?.endsWith('src/demo/main.ts'))
const shares = new Map()
for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
  const owner = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? 'this package'
  shares.set(owner, (shares.get(owner) ?? 0) + bytesInOutput)
}
const kb = (bytes) => `${(bytes / 1024).toFixed(1).padStart(7)} KB`
console.log(`${kb(output.bytes)}  dist/demo/main.js (minified, before compression)`)
// Code main.js shares with a lazy chunk is split out, but still loaded on every visit; a dynamic import only when it runs.
for (const { path, kind } of output.imports) {
  const when = kind === 'dynamic-import' ? 'loaded only when it runs' : 'loaded with main.js'
  console.log(`${kb(result.metafile.outputs[path].bytes)}  ${path.replace(/^.*\//, 'dist/demo/')} (${when})`)
}
for (const [owner, bytes] of [...shares].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${kb(bytes)}  ${owner}`)
