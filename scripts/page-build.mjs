// What the demo page and the QA panel are built with: their page copied, their script and style bundled and minified for browsers.
import { mkdirSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { build } from 'esbuild'

/** How a page's script is bundled: scripts/demo-size.mjs measures with the same options. */
export const PAGE_SCRIPT_OPTIONS = { bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'warning' }

/**
 * `splitting`: a dynamic `import()` becomes a file of its own, fetched only
 * when it runs (the demo's in-page panel), instead of being bundled in.
 */
export async function buildPage(entryPoints, outdir, { splitting = false } = {}) {
  mkdirSync(outdir, { recursive: true })
  const { metafile } = await build({ ...PAGE_SCRIPT_OPTIONS, entryPoints, loader: { '.html': 'copy' }, outdir, splitting, metafile: true })
  // Split, esbuild still writes the target of an import() that tree shaking dropped (msw's lazy graphql, 180 KB): nothing loads it.
  const imported = new Set(Object.values(metafile.outputs).flatMap((output) => output.imports.map((entry) => resolve(entry.path))))
  const wanted = new Set(entryPoints.map((entry) => resolve(entry)))
  for (const [file, output] of Object.entries(metafile.outputs))
    if (!imported.has(resolve(file)) && output.entryPoint !== undefined && !wanted.has(resolve(output.entryPoint))) rmSync(file)
}
