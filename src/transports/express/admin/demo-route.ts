import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import express, { Router } from 'express'
import { ApiError } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { sendError } from '../../node/node-edge.js'
import { packageRoot } from '../../node/package-root.js'
import { sendRedirect } from './admin-json.js'

/** `/__sim/demo/`: the demo page and the worker script of the msw that built it (scripts/build-demo.mjs). */
export function demoRouter(): Router {
  const router = Router()
  const demo = fileURLToPath(new URL('dist/demo/', packageRoot()))
  router.get('/', (req, res, next) => {
    // Relative URLs in the page (./main.js, the worker) need the trailing slash.
    if (new URL(req.originalUrl, 'http://simulator').pathname.endsWith('/')) next()
    else sendRedirect(req, res, 301, '/__sim/demo/')
  })
  router.use((_req, res, next) => {
    if (existsSync(demo)) next()
    else sendError(res, new ApiError(404, ErrorCode.NotFound, 'The demo page is not built: run "npm run build" in the package folder.'))
  })
  router.use(express.static(demo, { index: 'index.html', redirect: false }))
  return router
}
