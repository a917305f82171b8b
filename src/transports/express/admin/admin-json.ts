import type { Request as ExpressRequest, Response as ExpressResponse } from 'express'
import { invalidRequest } from '../../../core/api-error.js'
import { parseExactJson, stringifyExactJson } from '../../../core/exact-json.js'
import { jsonTooDeep, MAX_JSON_DEPTH } from './json-depth.js'
import { quote } from '../../../core/quote-value.js'

/** The JSON value of an admin call's body, or `undefined` for none; `example` follows "not valid JSON" as a hint. */
export function readJson(req: ExpressRequest, example = ''): unknown {
  const body: unknown = req.body
  const text = Buffer.isBuffer(body) ? body.toString('utf8').trim() : ''
  if (text === '') return undefined
  if (jsonTooDeep(text)) throw invalidRequest(`The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`)
  try {
    // Exact: an int64 id beyond 2^53 keeps every digit.
    return parseExactJson(text)
  } catch {
    throw invalidRequest(`The request body is not valid JSON.${example === '' ? '' : ` ${example}`}`)
  }
}

/** Sends a JSON value that may hold bigints (int64 ids beyond 2^53). */
export function sendJson(res: ExpressResponse, status: number, value: unknown): void {
  res.status(status).type('application/json').send(stringifyExactJson(value))
}

/**
 * A redirect a browser follows and a script can read: HTML for a browser, JSON naming
 * the new address for anyone else (express's own would answer them in plain text).
 */
export function sendRedirect(req: ExpressRequest, res: ExpressResponse, status: 301 | 302, location: string): void {
  if (req.accepts(['json', 'html']) === 'html') {
    res.redirect(status, location)
    return
  }
  res.location(location)
  sendJson(res, status, { location, message: `This page lives at ${location}.` })
}

/** The query of a request as an object of strings, for a filter to check; a field given twice is a 400. */
export function readQuery(originalUrl: string): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [name, value] of new URL(originalUrl, 'http://simulator').searchParams) {
    if (Object.hasOwn(query, name)) throw invalidRequest(`The query gives ${quote(name)} more than once; give each filter field once.`)
    Object.defineProperty(query, name, { value, enumerable: true, writable: true, configurable: true })
  }
  return query
}
