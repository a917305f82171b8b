// What the demo page and the QA panel are built with: their page copied, their script and style bundled and minified for browsers.
import { mkdirSync } from 'node:fs'
import { build } from 'esbuild'

/** How a page's script is bundled: scripts/demo-size.mjs measures with the same options. */
export const PAGE_SCRIPT_OPTIONS = { bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'warning' }

export async function buildPage(entryPoints, outdir) {
  mkdirSync(outdir, { recursive: true })
  await build({ ...PAGE_SCRIPT_OPTIONS, entryPoints, loader: { '.html': 'copy' }, outdir })
}
