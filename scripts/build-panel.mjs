// Builds the QA panel (dist/panel/): its page, style and one bundled, minified script, with no framework.
import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { buildPage } from './page-build.mjs'

const root = fileURLToPath(new URL('../', import.meta.url))
const outdir = `${root}dist/panel`
await buildPage([`${root}src/panel/main.ts`, `${root}src/panel/index.html`, `${root}src/panel/panel.css`], outdir)
if (process.env.PANEL_SIZE === '1') console.log(`dist/panel/main.js: ${statSync(`${outdir}/main.js`).size} bytes`)
