import type { HttpHandler } from 'msw'
import type { Dispatcher } from '../../core/dispatch/dispatcher.js'
import { fromFetch } from '../../core/fetch/fetch-request.js'
import { toResponse } from '../../core/fetch/fetch-response.js'
import { OPERATIONS } from '../../core/operations/registry.js'
import { isUnderBase, type ApiBase } from '../../core/operations/routing.js'

/** The part of msw the handlers are made with: loaded by whoever makes them, so that msw stays optional. */
export type MswHttp = Pick<typeof import('msw'), 'http'>

type Params = { param: string; target: string }

/**
 * The msw handlers of the service: one per operation of the registry, then a
 * catch-all that answers what a real server would for any other request under
 * the base. Each hands the request to the dispatcher every transport shares.
 */
export function createHandlers({ http }: MswHttp, base: ApiBase, dispatcher: Dispatcher): HttpHandler[] {
  const handlers = OPERATIONS.map((operation) =>
    (operation.method === 'DELETE' ? http.delete : http.get)<Params>(
      ({ request }) => {
        const url = new URL(request.url)
        const found = dispatcher.find(request.method, url)
        return found?.operation === operation ? { matches: true, params: { param: found.param, target: url.pathname + url.search } } : false
      },
      async ({ request, params }) =>
        toResponse(await dispatcher.operation(fromFetch(request, params.target), operation, params.param), request.method),
    ),
  )
  if (dispatcher.answersUnknown) {
    // Last, so that handlers placed before it (or added with `server.use()`) win.
    handlers.push(
      http.all(
        ({ request }) => isUnderBase(new URL(request.url), base),
        async ({ request }) => {
          const url = new URL(request.url)
          return toResponse(await dispatcher.unknown(fromFetch(request, url.pathname + url.search), url), request.method)
        },
      ),
    )
  }
  return handlers
}
