import { jsonText } from '../json-text.js'
import { sameQuery } from './route-path.js'
import { MAX_ROUTES, type Route } from './route-schema.js'
import { createRouteTable, type HeldRoute, type RouteTable } from './route-table.js'

/** The most bytes of routes one state may gain by recording (as `heldBytes` counts them): past it, nothing more is recorded. */
const MAX_RECORDED_ROUTE_BYTES = 16 * 1024 * 1024
/** What a recorded route holds besides its body and its text: its objects, its compiled segments, its place in the table. */
const ROUTE_OVERHEAD_BYTES = 512

/** The routes of one state, and its one table (route-table.ts): the spec's operations and its routes. */
export interface RouteBook extends Pick<RouteTable, 'match'> {
  /** The routes as held, in order: a recorded one's body is `raw` (see `shownRoute`). No copy is made. */
  list(): readonly HeldRoute[]
  /**
   * Adds a recorded route unless what answers its method, path and query now is an operation or a
   * route of an equal query (the first answer per method, path and query is kept), and when the
   * state's bounds (MAX_ROUTES, MAX_RECORDED_ROUTE_BYTES, `charge`) allow it. Returns whether it was
   * added. Compiles that route alone.
   */
  add(route: HeldRoute): boolean
  /** Back to a scenario's routes (a reset, a load): recorded ones are dropped, the table built afresh. */
  reset(routes: readonly Route[]): void
  /** Whether the route at `index` was recorded (added since the scenario's routes), not written in the scenario. */
  recorded(index: number): boolean
  /** The routes recorded since the scenario's, as held, in order (what a snapshot keeps). No copy of a route is made. */
  recordedRoutes(): readonly HeldRoute[]
  /** Goes up with every route added and every reset; never on a read or a request. */
  revision(): number
}

/**
 * What a recorded route holds, in bytes: its body's bytes exactly (held as a Uint8Array, outside the JS
 * heap), its other fields as UTF-16 text (2 bytes a character, as a string may take) with its path once
 * more for the compiled segments, and a fixed share for the objects. A parsed body (never recorded so)
 * would count as its JSON text alone, which understates it: recording keeps bytes.
 */
export function heldBytes(route: HeldRoute): number {
  const { raw, body, ...fields } = route
  const text = jsonText(fields).length + route.path.length + (body === undefined ? 0 : jsonText(body).length)
  return (raw?.bytes.byteLength ?? 0) + 2 * text + ROUTE_OVERHEAD_BYTES
}

/** A route as a scenario writes it (a state view, an export, a save): a recorded body read as its value now. */
export function shownRoute(route: HeldRoute): Route {
  const { raw, ...shown } = route
  return raw === undefined ? shown : { ...shown, body: raw.value() }
}

/** Whether a recorded route would say again what the table answers already: an operation, or a route of the same query there. */
function answered(table: RouteTable, route: HeldRoute): boolean {
  // The route's own query, as a request carrying exactly it would send it.
  const query = route.query === undefined ? '' : new URLSearchParams(Object.entries(route.query)).toString()
  const found = table.match(route.method, route.path, query)
  return 'operation' in found || ('route' in found && sameQuery(found.route.query, route.query))
}

/**
 * A route book; `charge` counts recorded bytes against the sessions' shared bound (a session's, or the
 * default state's) and throws when they would pass it. The table is compiled here, once per list: a
 * request only looks a route up.
 */
export function createRouteBook(initial: readonly Route[], charge?: (bytes: number) => void): RouteBook {
  let routes: readonly HeldRoute[] = initial
  let written = initial.length
  let table = createRouteTable(routes)
  let recorded = 0
  let revision = 0
  return {
    list: () => routes,
    match: (method, path, query) => table.match(method, path, query),
    add(route) {
      if (routes.length >= MAX_ROUTES || answered(table, route)) return false
      const bytes = heldBytes(route)
      if (recorded + bytes > MAX_RECORDED_ROUTE_BYTES) return false
      try {
        charge?.(bytes)
      } catch {
        // The sessions' bound is reached: the answer is still passed back, just not recorded.
        return false
      }
      recorded += bytes
      table.add(route, routes.length)
      routes = [...routes, route]
      revision++
      return true
    },
    reset(next) {
      charge?.(-recorded)
      recorded = 0
      routes = next
      written = next.length
      table = createRouteTable(routes)
      revision++
    },
    recorded: (index) => index >= written,
    recordedRoutes: () => routes.slice(written),
    revision: () => revision,
  }
}
