// What the demo page and the QA panel are built with: their page copied, their script and style bundled and minified for browsers.
import { mkdirSync } from 'node:fs'
import { build } from 'esbuild'

export async function buildPage(entryPoints, outdir) {
  mkdirSync(outdir, { recursive: true })
  await build({
    entryPoints,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    loader: { '.html': 'copy' },
    outdir,
    logLevel: 'warning',
  })
}
