// Imported, not loaded on first use: what imports this module bundles msw (a page) or needs it anyway.
import * as msw from 'msw'
import type { MswHttp } from './handlers.js'

/**
 * The part of the imported msw the handlers use. Named, not the namespace
 * itself: a bundler keeps only what is named (msw's graphql stays out).
 */
export function bundledMsw(): MswHttp {
  return { http: msw.http }
}
