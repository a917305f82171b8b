import { expect, test } from 'vitest'
import type { Reply } from '../reply.js'
import { toResponse } from './fetch-response.js'
import { fetchResponse } from './sim-response.js'

/** A reply with a header value Fetch refuses (no ByteString), as a route could hold one. */
const unsendable: Reply = { status: 200, headers: { 'X-Route': 'caf\u20ac' }, body: 'hello' }
const URL_SENT = 'https://api.petstore.example/v1/store/inventory'

test('a reply Fetch cannot make a Response of is a 500 internal_error, in sim.fetch and in msw, told to the reporter', async () => {
  const told: unknown[] = []
  const viaFetch = fetchResponse(unsendable, 'GET', URL_SENT, undefined, (error) => told.push(error))
  expect([viaFetch.status, (await viaFetch.json()).code, viaFetch.url]).toEqual([500, 'internal_error', URL_SENT])
  expect(told).toEqual([expect.any(TypeError)])
  const viaMsw = toResponse({ ...unsendable, status: 600 }, 'GET')
  expect([viaMsw.status, (await viaMsw.json()).code]).toEqual([500, 'internal_error'])
})

test('a forwarded answer Fetch cannot hold is 502 proxy_bad_answer, and no bug to report', async () => {
  const told: unknown[] = []
  const response = fetchResponse({ ...unsendable, setCookie: [] }, 'GET', URL_SENT, undefined, (error) => told.push(error))
  expect([response.status, (await response.json()).code, told]).toEqual([502, 'proxy_bad_answer', []])
})

test('a forwarded 204 or 304, which comes with an empty body, is passed back without one', async () => {
  for (const status of [204, 304]) {
    const forwarded: Reply = { status, headers: { 'X-Kept': 'yes' }, body: new Uint8Array(), setCookie: [] }
    for (const response of [fetchResponse(forwarded, 'GET', URL_SENT, undefined), toResponse(forwarded, 'GET')]) {
      expect([response.status, response.headers.get('X-Kept'), response.body]).toEqual([status, 'yes', null])
    }
  }
})
