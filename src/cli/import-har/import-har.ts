import { parseExactJson } from '../../core/exact-json.js'
import type { JsonValue } from '../../core/glossary.js'
import { recordableHeaders } from '../../core/proxy/record.js'
import { type Fail, MAX_ROUTES, parseRoute } from '../../core/routes/parse-routes.js'
import { pathSegments } from '../../core/routes/route-path.js'
import { ROUTE_METHODS, type Route } from '../../core/routes/route-schema.js'
import { OPERATION_TABLE } from '../../core/routes/route-table.js'
import { parseScenario } from '../../core/scenario/parse-scenario.js'
import type { Scenario } from '../../core/scenario/scenario.js'
import { isScenarioError } from '../../core/scenario/scenario-error.js'
import { describeOrders, type ListedOrders, ordersFromList } from '../record/orders-from-list.js'
import { entriesUnder, failHar as fail, type HarEntry, harEntries } from './har-entries.js'
import { harSecrets, MAX_SECRET_CHARS, redactSecrets } from './har-secrets.js'

/** The largest HAR read, in characters. */
export const MAX_HAR_CHARS = 64 * 1024 * 1024

function where(entry: HarEntry, base: string): string {
  return `entry ${entry.index} (${entry.method} ${base}${entry.path === '/' ? '' : entry.path})`
}

/** An answer's body as JSON, or a one-line error naming the entry. */
function jsonBody(entry: HarEntry, base: string): JsonValue | undefined {
  if (entry.text === undefined) return undefined
  try {
    return parseExactJson(entry.text) as JsonValue
  } catch {
    const type = entry.contentType === undefined ? '' : ` (${entry.contentType.split(';')[0]})`
    return fail(`${where(entry, base)}: the body is not JSON${type}; only JSON bodies are imported.`)
  }
}

/** The route an entry gives; a problem names the entry. */
function routeOf(entry: HarEntry, base: string): Route {
  // Browsers percent-encode braces; a literal one would turn the route's segment into a parameter.
  if (/[{}]/.test(entry.path)) fail(`${where(entry, base)}: the path holds "{" or "}", which a route reads as a parameter.`)
  const headers = recordableHeaders(entry.headers)
  // A HEAD, 204 or 205 answer carries no body, whatever a HAR holds for it.
  const body = entry.method === 'HEAD' || entry.status === 204 || entry.status === 205 ? undefined : jsonBody(entry, base)
  const candidate = {
    method: entry.method,
    path: `/${pathSegments(entry.path).join('/')}`,
    status: entry.status,
    ...(headers === undefined ? {} : { headers }),
    ...(body === undefined ? {} : { body }),
  }
  const failRoute: Fail = (_, problem) => fail(`${where(entry, base)}: ${problem}.`)
  return parseRoute(candidate, 'route', failRoute)
}

function listedOrders(list: HarEntry | undefined, base: string): ListedOrders {
  if (list === undefined)
    return {
      orders: [],
      statusRule: `no 200 answer of GET ${base}/store/orders in the HAR, so no orders`,
      exposeStatus: false,
      leftOut: [],
    }
  const items = jsonBody(list, base)
  if (!Array.isArray(items)) fail(`${where(list, base)}: the list of orders is not a JSON array.`)
  try {
    return ordersFromList(items)
  } catch (error) {
    return fail(`${where(list, base)}: ${error instanceof Error ? error.message : String(error)}.`)
  }
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`

/**
 * Turns a HAR (DevTools, Playwright's `recordHar`) into a scenario, as `import-har --help` tells: the
 * orders, pet records and routes of the entries under the base, no credential copied (har-secrets.ts).
 * Throws a one-line `HarImportError` for bad input.
 */
export function importHar(harText: string, options: { name: string; base?: string }): Scenario {
  if (harText.length > MAX_HAR_CHARS) fail(`The HAR is ${harText.length} characters long; the most read is ${MAX_HAR_CHARS} (64 MiB).`)
  const given = options.base ?? '/v1'
  if (!/^\/\S*$/.test(given)) fail(`--base must be a path starting with "/", such as /v1, got ${JSON.stringify(given)}.`)
  const base = given.replace(/\/+$/, '')
  const list = harEntries(harText)
  const entries = entriesUnder(list, base)
  if (entries.length === 0)
    fail(`The HAR has no entry under ${base || '/'} (of its ${list.length} entries); give the API's base with --base.`)
  let ordersEntry: HarEntry | undefined
  const pets: Record<string, JsonValue> = {}
  const routes: Route[] = []
  const routed = new Set<string>()
  let skipped = 0
  for (const entry of entries) {
    // 0: blocked or aborted; 304: the browser's cache answered, so the HAR holds no answer of the service's own.
    const unanswered = entry.status < 200 || entry.status > 599 || entry.status === 304
    if (unanswered || entry.preflight || !(ROUTE_METHODS as readonly string[]).includes(entry.method)) {
      skipped++
      continue
    }
    // Calls of a spec operation, by the simulator's own table, are the simulator's: never routes.
    const call = OPERATION_TABLE.match(entry.method, entry.path)
    const operation = 'operation' in call ? call.operation.id : undefined
    if (operation === 'listOrders' && entry.status === 200) ordersEntry = entry
    else if (operation === 'getPetById' && entry.status === 200) pets['param' in call ? call.param : ''] = jsonBody(entry, base) ?? null
    else if (operation === undefined) {
      const route = `${entry.method} /${pathSegments(entry.path).join('/')}`
      if (routed.has(route)) continue
      if (routes.length === MAX_ROUTES)
        fail(`The HAR gives more than ${MAX_ROUTES} routes (method and path pairs); a scenario holds at most ${MAX_ROUTES}.`)
      routed.add(route)
      routes.push(routeOf(entry, base))
    }
  }
  const listed = listedOrders(ordersEntry, base)
  const petCount = Object.keys(pets).length
  const built: Scenario = {
    name: options.name,
    description: '',
    orders: listed.orders,
    ...(listed.exposeStatus ? { exposeStatus: true } : {}),
    ...(petCount > 0 ? { pets } : {}),
    ...(routes.length > 0 ? { routes } : {}),
  }
  const secrets = harSecrets(list)
  const secretChars = [...secrets].reduce((total, secret) => total + secret.length, 0)
  if (secretChars > MAX_SECRET_CHARS)
    fail(
      `The HAR's credentials (headers, cookies, tokens) come to ${secretChars} characters; import-har redacts at most ${MAX_SECRET_CHARS} (8 Mi).`,
    )
  const { value: scenario, redacted } = redactSecrets(built, secrets)
  const extra = [
    plural(routes.length, 'route'),
    ...(petCount > 0 ? [plural(petCount, 'pet record')] : []),
    ...(skipped > 0 ? [`${plural(skipped, 'entry', 'entries')} not imported (CORS preflight, 304, no answer or another method)`] : []),
    ...(redacted > 0 ? [`credentials the HAR carries read [redacted] in ${plural(redacted, 'value')}`] : []),
  ]
  scenario.description = describeOrders(`Imported from a HAR (base ${base || '/'})`, listed, extra)
  try {
    parseScenario(scenario, options.name)
  } catch (error) {
    if (isScenarioError(error)) fail(error.message)
    throw error
  }
  return scenario
}
