// `npm run size:demo`: what a page loads for the simulator. First README's snippet built by Vite for
// production, as an app gets it (its chunks and what each package adds), then the demo page's script.
// docs/performance.md has the figures; test/chunk-size.test.ts keeps the budget.
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { PAGE_SCRIPT_OPTIONS } from './page-build.mjs'
import { BUDGET, measureSnippet } from './snippet-size.mjs'

const root = fileURLToPath(new URL('../', import.meta.url))
const kb = (bytes) => `${(bytes / 1024).toFixed(1).padStart(7)} KB`

const snippet = await measureSnippet()
console.log("README's enableMocking snippet, Vite production build (minified; gzip in brackets):")
for (const chunk of snippet.chunks) {
  console.log(`${kb(chunk.bytes)}  ${chunk.file} (${kb(chunk.gzip).trim()})`)
  for (const { name, bytes, msw } of chunk.packages.filter((each) => each.bytes >= 512)) {
    console.log(`  ${kb(bytes)}  ${name}${msw ? ' (msw)' : ''}`)
  }
}
// In bytes, as test/chunk-size.test.ts checks it: 120 KB is 120,000 bytes (a KB above is 1,024).
const bytes = (count) => `${count.toLocaleString('en-US')} bytes`
console.log(
  `\nThe simulator besides msw, as a page on the default scenario loads it: ${bytes(snippet.startup.bytes)} (budget ${bytes(BUDGET)})`,
)
for (const chunk of snippet.lazy) {
  const holds = chunk.packages.map((each) => each.name).join(', ')
  console.log(`  loaded only when needed: ${chunk.file} ${kb(chunk.bytes).trim()} (${holds})`)
}
console.log(snippet.warnings.length === 0 ? 'Vite printed no warning.' : `Vite warned:\n${snippet.warnings.join('\n')}`)

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
console.log(`\n${kb(output.bytes)}  dist/demo/main.js, the demo page's script (esbuild, minified, before compression)`)
// Code main.js shares with a lazy chunk is split out, but still loaded on every visit; a dynamic import only when it runs.
for (const { path, kind } of output.imports) {
  const when = kind === 'dynamic-import' ? 'loaded only when it runs' : 'loaded with main.js'
  console.log(`${kb(result.metafile.outputs[path].bytes)}  ${path.replace(/^.*\//, 'dist/demo/')} (${when})`)
}
for (const [owner, bytes] of [...shares].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${kb(bytes)}  ${owner}`)
