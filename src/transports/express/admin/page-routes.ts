import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import express, { type Request, type RequestHandler, Router } from 'express'
import { ApiError } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { sendError } from '../../node/node-edge.js'
import { packageRoot } from '../../node/package-root.js'
import { sendRedirect } from './admin-json.js'

/** The page may load its own script and style and call its own origin, nothing else; no other site may frame it. */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
}

const builtFolder = (name: string) => fileURLToPath(new URL(`dist/${name}/`, packageRoot()))
const endsWithSlash = (req: Request) => new URL(req.originalUrl, 'http://simulator').pathname.endsWith('/')
/** On to a page's files once the build made them; before, a 404 saying so. */
const whenBuilt =
  (folder: string, page: string): RequestHandler =>
  (_req, res, next) => {
    if (existsSync(folder)) next()
    else sendError(res, new ApiError(404, ErrorCode.NotFound, `The ${page} is not built: run "npm run build" in the package folder.`))
  }

/**
 * `/__sim/`: the QA panel (built by scripts/build-panel.mjs), and its files
 * under `/__sim/panel/`. `/__sim` without the slash stays the JSON list of
 * endpoints for scripts; a browser asking for it is sent to the panel.
 */
export function panelRouter(): Router {
  const router = Router()
  const panel = builtFolder('panel')
  const built = whenBuilt(panel, 'panel')
  router.get('/', (req, res, next) => {
    if (!endsWithSlash(req)) {
      if (req.accepts(['json', 'html']) === 'html') res.redirect(302, '/__sim/')
      else next()
      return
    }
    // root, not an absolute path: send refuses a path with a dot folder (~/.npm/_npx, .matrix) anywhere in it.
    built(req, res, () => res.set(PAGE_HEADERS).sendFile('index.html', { root: panel }))
  })
  router.use('/panel', built, express.static(panel, { index: false, redirect: false }))
  return router
}

/** `/__sim/demo/`: the demo page and the worker script of the msw that built it (scripts/build-demo.mjs). */
export function demoRouter(): Router {
  const router = Router()
  const demo = builtFolder('demo')
  router.get('/', (req, res, next) => {
    // Relative URLs in the page (./main.js, the worker) need the trailing slash.
    if (endsWithSlash(req)) next()
    else sendRedirect(req, res, 301, '/__sim/demo/')
  })
  router.use(whenBuilt(demo, 'demo page'), express.static(demo, { index: 'index.html', redirect: false }))
  return router
}
