// Builds the QA panel (dist/panel/): its page, its one bundled, minified script with no framework, and its
// style, written from the stylesheet the in-page panel shares (dist/src/ui/panel-styles.js, built by tsc first).
import { statSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { buildPage } from './page-build.mjs'

const root = fileURLToPath(new URL('../', import.meta.url))
const outdir = `${root}dist/panel`
await buildPage([`${root}src/panel/main.ts`, `${root}src/panel/index.html`], outdir)
const { PANEL_STYLES } = await import(`${root}dist/src/ui/panel-styles.js`)
writeFileSync(`${outdir}/panel.css`, PANEL_STYLES)
if (process.env.PANEL_SIZE === '1') console.log(`dist/panel/main.js: ${statSync(`${outdir}/main.js`).size} bytes`)
