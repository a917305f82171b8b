import type { Fetch, SimFetchContext } from './glossary.js'

/**
 * The simulator as a standard `fetch` (`fetch-call.ts` answers). Its code is
 * loaded on the first call: a page that starts a worker and never calls
 * `sim.fetch` never downloads it.
 */
export function createSimFetch(context: SimFetchContext): Fetch {
  let call: ((context: SimFetchContext, input: string | URL | Request, init?: RequestInit) => Promise<Response>) | undefined
  // An arrow function of its own: it works unbound (`createClient({ fetch: sim.fetch })`).
  return async (input, init) => {
    call ??= (await import('./fetch-call.js')).simFetch
    return call(context, input, init)
  }
}
