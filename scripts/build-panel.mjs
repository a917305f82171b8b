// Builds the QA panel (dist/panel/): its page, style and one bundled, minified script, with no framework.
import { mkdirSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
const outdir = `${root}dist/panel`
mkdirSync(outdir, { recursive: true })
await build({
  entryPoints: [`${root}src/panel/main.ts`, `${root}src/panel/index.html`, `${root}src/panel/panel.css`],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  loader: { '.html': 'copy' },
  outdir,
  logLevel: 'warning',
})
if (process.env.PANEL_SIZE === '1') console.log(`dist/panel/main.js: ${statSync(`${outdir}/main.js`).size} bytes`)
