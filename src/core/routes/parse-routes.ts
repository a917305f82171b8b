import * as v from 'valibot'
import { quote } from '../quote-value.js'
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

/**
 * The first route whose path starts with the API base (`/v1/store/orders` under `/v1`), said as one line:
 * a route's path is read under the base, so it would answer at `/v1/v1/store/orders`. None under a root base.
 */
export function baseRepeated(routes: readonly Pick<Route, 'path'>[], basePath: string): { field: string; problem: string } | undefined {
  if (basePath === '') return undefined
  const index = routes.findIndex(({ path }) => path === basePath || path.startsWith(`${basePath}/`))
  const path = routes[index]?.path
  if (path === undefined) return undefined
  const field = `routes[${index}]`
  const meant = path.slice(basePath.length) || '/'
  return {
    field: `${field}.path`,
    problem:
      `${field}.path ${quote(path)} starts with the API base ${basePath}, under which every route's path is read: ` +
      `it would answer at ${quote(basePath + path)}; write ${quote(meant)}`,
  }
}
