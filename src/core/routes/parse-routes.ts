import * as v from 'valibot'
import { type Route, RouteSchema, RoutesSchema } from './route-schema.js'

export { MAX_ROUTE_BODY_BYTES, MAX_ROUTES } from './route-schema.js'

/** Told the first problem of a route: where it is ("routes[3].status") and what is wrong; throws. */
export type Fail = (field: string, problem: string) => never

/** The first issue as a scenario's messages say it: the field, then what is wrong with it. */
function failWith(result: v.SafeParseResult<v.GenericSchema>, field: string, fail: Fail): never {
  const [issue] = result.issues as [v.BaseIssue<unknown>]
  let at = field
  for (const { type, key } of issue.path ?? []) at += type === 'array' ? `[${String(key)}]` : `.${String(key)}`
  if (issue.expected === 'never') return fail(at, `unknown field ${at}${issue.message}`)
  return fail(at, /^[ :]/.test(issue.message) ? `${at}${issue.message}` : issue.message)
}

/** Checks one route made outside a scenario file (recorded, imported) with the scenario's own rules; `field` names it. */
export function parseRoute(value: unknown, field: string, fail: Fail): Route {
  const result = v.safeParse(RouteSchema, value, { abortEarly: true })
  return result.success ? result.output : failWith(result, field, fail)
}

/** Checks a list of routes as a scenario's `routes`. */
export function parseRoutes(value: unknown, fail: Fail): Route[] {
  const result = v.safeParse(RoutesSchema, value, { abortEarly: true })
  return result.success ? result.output : failWith(result, 'routes', fail)
}
