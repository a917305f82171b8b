import type { Dispatcher } from '../dispatch/dispatcher.js'
import type { ErrorReporter } from '../dispatch/error-reporter.js'
import type { ApiBase } from '../operations/routing.js'

/** A standard `fetch`: what `sim.fetch` is, and what `fallbackFetch` takes. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** What `sim.fetch` needs of its simulator. */
export interface SimFetchContext {
  dispatcher: Dispatcher
  base: ApiBase
  /** Where requests outside the simulated API go; without it they reject with a `TypeError`. */
  fallbackFetch: Fetch | undefined
  /** Told of an answer Fetch could not make a `Response` of (a route's header value it refuses), answered 500. */
  report?: ErrorReporter
}
