import { jsonText } from '../json-text.js'
import { MAX_ROUTES, type Route } from './route-schema.js'

/** The most bytes of routes one state may gain by recording, as JSON: past it, nothing more is recorded. */
const MAX_RECORDED_ROUTE_BYTES = 16 * 1024 * 1024

/** The routes of one state: its scenario's, and those recorded while forwarding. */
export interface RouteBook {
  list(): readonly Route[]
  /**
   * Adds a recorded route the list does not answer yet (the caller matched it), when the state's bounds
   * (MAX_ROUTES, MAX_RECORDED_ROUTE_BYTES, `charge`) allow it. Returns whether it was added.
   */
  add(route: Route): boolean
  /** Back to a scenario's routes (a reset, a load): recorded ones are dropped. */
  reset(routes: readonly Route[]): void
}

/** A route book; `charge` counts recorded bytes against a session's bound and throws when they would pass it. */
export function createRouteBook(initial: readonly Route[], charge?: (bytes: number) => void): RouteBook {
  let routes = initial
  let recorded = 0
  return {
    list: () => routes,
    add(route) {
      const bytes = jsonText(route).length
      if (routes.length >= MAX_ROUTES || recorded + bytes > MAX_RECORDED_ROUTE_BYTES) return false
      try {
        charge?.(bytes)
      } catch {
        // The session's bound is reached: the answer is still passed back, just not recorded.
        return false
      }
      recorded += bytes
      routes = [...routes, route]
      return true
    },
    reset(next) {
      charge?.(-recorded)
      recorded = 0
      routes = next
    },
  }
}
