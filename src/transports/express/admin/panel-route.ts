import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import express, { Router } from 'express'
import { ApiError } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { sendError } from '../../node/node-edge.js'
import { packageRoot } from '../../node/package-root.js'

/** The page may load its own script and style and call its own origin, nothing else; no other site may frame it. */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
}

/**
 * `/__sim/`: the QA panel (built by scripts/build-panel.mjs), and its files
 * under `/__sim/panel/`. `/__sim` without the slash stays the JSON list of
 * endpoints for scripts; a browser asking for it is sent to the panel.
 */
export function panelRouter(): Router {
  const router = Router()
  const panel = fileURLToPath(new URL('dist/panel/', packageRoot()))
  const built = (res: express.Response) => {
    if (existsSync(panel)) return true
    sendError(res, new ApiError(404, ErrorCode.NotFound, 'The panel is not built: run "npm run build" in the package folder.'))
    return false
  }
  router.get('/', (req, res, next) => {
    if (!new URL(req.originalUrl, 'http://simulator').pathname.endsWith('/')) {
      if (req.accepts(['json', 'html']) === 'html') res.redirect(302, '/__sim/')
      else next()
      return
    }
    // root, not an absolute path: send refuses a path with a dot folder (~/.npm/_npx, .matrix) anywhere in it.
    if (built(res)) res.set(PAGE_HEADERS).sendFile('index.html', { root: panel })
  })
  router.use('/panel', (_req, res, next) => {
    if (built(res)) next()
  })
  router.use('/panel', express.static(panel, { index: false, redirect: false }))
  return router
}
