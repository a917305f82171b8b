// Builds the demo page (dist/demo/): the page, its script bundled with the
// msw that this folder resolves, and that same msw's worker script. The page
// registers the worker it is shipped with, so the client code and the worker
// always come from one msw version, whichever msw a consumer installs beside
// the package.
import { copyFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { buildPage } from './page-build.mjs'

const root = fileURLToPath(new URL('../', import.meta.url))
const outdir = `${root}dist/demo`
// Emptied first: split chunks carry a content hash, and an old build's would otherwise stay beside the new ones (and be packed).
rmSync(outdir, { recursive: true, force: true })
// Split: the in-page panel (?devtools) is a file of its own that a plain visit never fetches.
await buildPage([`${root}src/demo/main.ts`, `${root}src/demo/index.html`], outdir, { splitting: true })
// Resolved from src/demo/, as esbuild resolved the page's `msw/browser`.
const worker = createRequire(`${root}src/demo/main.ts`).resolve('msw/mockServiceWorker.js')
copyFileSync(worker, `${outdir}/mockServiceWorker.js`)
