import { parseExactJson } from '../../core/exact-json.js'
import type { JsonValue } from '../../core/glossary.js'
import { OPERATIONS, type OperationId } from '../../core/operations/registry.js'
import { recordableHeaders } from '../../core/proxy/record.js'
import { type Fail, MAX_ROUTES, parseRoute } from '../../core/routes/parse-routes.js'
import { ROUTE_METHODS, type Route, templateSegments } from '../../core/routes/route-schema.js'
import { pathSegments } from '../../core/routes/route-table.js'
import { parseScenario } from '../../core/scenario/parse-scenario.js'
import { isPlainObject } from '../../core/scenario/plain-object.js'
import type { Scenario } from '../../core/scenario/scenario.js'
import { isScenarioError } from '../../core/scenario/scenario-error.js'
import { describeOrders, type ListedOrders, ordersFromList } from '../record/orders-from-list.js'
import { harSecrets, redactSecrets } from './har-secrets.js'

/** A HAR that cannot be imported; its message is one line (exit 2). */
export class HarImportError extends Error {
  override name = 'HarImportError'
}

/** The largest HAR read, in characters. */
export const MAX_HAR_CHARS = 64 * 1024 * 1024

interface HarEntry {
  index: number
  method: string
  /** The path under the base, "/" for the base itself. */
  path: string
  status: number
  headers: [string, string][]
  /** The answer's text, base64 decoded, or undefined when the HAR holds none. */
  text: string | undefined
  contentType: string | undefined
  /** A CORS preflight the browser sent on its own: the simulator answers those itself. */
  preflight: boolean
}

function fail(message: string): never {
  throw new HarImportError(message)
}

function field(record: unknown, name: string): unknown {
  return isPlainObject(record) ? record[name] : undefined
}

function headerPairs(list: unknown): [string, string][] {
  return (Array.isArray(list) ? list : []).flatMap((header): [string, string][] => {
    const name = field(header, 'name')
    const value = field(header, 'value')
    return typeof name === 'string' && typeof value === 'string' ? [[name, value]] : []
  })
}

/** The response text of an entry, base64 `content.encoding` decoded. */
function contentText(content: unknown, where: string): string | undefined {
  const text = field(content, 'text')
  if (typeof text !== 'string' || text === '') return undefined
  if (field(content, 'encoding') !== 'base64') return text
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(text)) fail(`${where}: content.text is not base64, though content.encoding says so.`)
  return Buffer.from(text, 'base64').toString('utf8')
}

/** The entries under the base, read from the HAR's `log.entries`. */
function entriesUnder(list: readonly unknown[], base: string): HarEntry[] {
  const entries: HarEntry[] = []
  for (const [index, entry] of list.entries()) {
    const request = field(entry, 'request')
    const response = field(entry, 'response')
    const method = field(request, 'method')
    const url = field(request, 'url')
    const status = field(response, 'status')
    if (typeof method !== 'string' || typeof url !== 'string' || typeof status !== 'number')
      fail(`The file is not a HAR: entry ${index} has no request.method, request.url and response.status.`)
    let pathname: string
    try {
      pathname = new URL(url).pathname
    } catch {
      return fail(`The file is not a HAR: entry ${index} has request.url ${JSON.stringify(url.slice(0, 80))}, which is no absolute URL.`)
    }
    if (pathname !== base && !pathname.startsWith(`${base}/`)) continue
    const headers = headerPairs(field(response, 'headers'))
    const content = field(response, 'content')
    const where = `entry ${index} (${method.toUpperCase()} ${pathname})`
    const mimeType = field(content, 'mimeType')
    const contentType =
      headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? (typeof mimeType === 'string' ? mimeType : undefined)
    // Only the names of the request's headers are read, never their values.
    const preflight =
      method.toUpperCase() === 'OPTIONS' &&
      headerPairs(field(request, 'headers')).some(([name]) => name.toLowerCase() === 'access-control-request-method')
    const path = pathname.slice(base.length) || '/'
    entries.push({ index, method: method.toUpperCase(), path, status, headers, text: contentText(content, where), contentType, preflight })
  }
  return entries
}

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

/** Each spec operation's method and path, as segments (null where its parameter goes). */
const OPERATION_TEMPLATES = OPERATIONS.map(({ id, method, path }) => ({ id, method, segments: templateSegments(path) }))

/** The spec operation an entry is a call of, or undefined: those are the simulator's own, never routes. */
function operationOf(entry: HarEntry): OperationId | undefined {
  const segments = pathSegments(entry.path)
  return OPERATION_TEMPLATES.find(
    (operation) =>
      operation.method === entry.method &&
      operation.segments.length === segments.length &&
      operation.segments.every((literal, index) => (literal === null ? segments[index] !== '' : literal === segments[index])),
  )?.id
}

function petIdOf(entry: HarEntry): string {
  const segment = pathSegments(entry.path)[1] ?? ''
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
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

/** The HAR's entries, or a one-line error when the text is not a HAR. */
function harEntries(harText: string): unknown[] {
  let har: unknown
  try {
    har = JSON.parse(harText.charCodeAt(0) === 0xfeff ? harText.slice(1) : harText)
  } catch (error) {
    fail(`The file is not a HAR: it is not JSON (${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`)
  }
  const list = field(field(har, 'log'), 'entries')
  if (!Array.isArray(list)) fail('The file is not a HAR: it has no log.entries list.')
  return list
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`

/**
 * Turns a HAR (DevTools, Playwright's `recordHar`) into a scenario: the
 * last 200 answer of `GET <base>/store/orders` gives the orders, the last
 * 200 of each `GET <base>/pets/{petId}` the pet records (a spec operation,
 * so never a route), and every other entry under the base a route, the
 * first per method and path. `DELETE <base>/store/orders/{id}` is the
 * simulator's own and gives nothing; so do CORS preflights, 304s and
 * entries without an answer. No request header value is read; the values
 * of Authorization, cookie and Set-Cookie headers are never copied, and
 * read `[redacted]` wherever an answer echoes them. Throws a one-line
 * `HarImportError` for bad input.
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
    const operation = operationOf(entry)
    if (operation === 'listOrders' && entry.status === 200) ordersEntry = entry
    else if (operation === 'getPetById' && entry.status === 200) pets[petIdOf(entry)] = jsonBody(entry, base) ?? null
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
  const { value: scenario, redacted } = redactSecrets(built, harSecrets(list))
  const extra = [
    plural(routes.length, 'route'),
    ...(petCount > 0 ? [plural(petCount, 'pet record')] : []),
    ...(skipped > 0 ? [`${plural(skipped, 'entry', 'entries')} not imported (CORS preflight, 304, no answer or another method)`] : []),
    ...(redacted > 0 ? [`credentials the HAR's headers carry read [redacted] in ${plural(redacted, 'value')}`] : []),
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
