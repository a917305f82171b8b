import { parseExactJson } from '../../core/exact-json.js'
import type { JsonValue } from '../../core/glossary.js'
import { describeTraffic, summarizeTraffic, type TrafficAnswer } from '../../core/outcome-coverage/traffic-outcomes.js'
import { type RecordSecrets, routeOfAnswer } from '../../core/proxy/record.js'
import { MAX_ROUTES } from '../../core/routes/parse-routes.js'
import { routeIdentity } from '../../core/routes/route-path.js'
import { ROUTE_METHODS, type Route } from '../../core/routes/route-schema.js'
import { OPERATION_TABLE } from '../../core/routes/route-table.js'
import { parseScenario } from '../../core/scenario/parse-scenario.js'
import type { Scenario } from '../../core/scenario/scenario.js'
import { isScenarioError } from '../../core/scenario/scenario-error.js'
import { describeOrders, type ListedOrders, ordersFromList } from '../record/orders-from-list.js'
import { petRecordProblem } from '../record/record-scenario.js'
import { entriesUnder, failHar as fail, type HarEntry, harEntries } from './har-entries.js'
import { harSecrets, MAX_SECRET_CHARS, redactSecrets, secretFinder } from './har-secrets.js'
import { type HarSkip, skippedEntries } from './skipped-entries.js'

/** The largest HAR read, in characters. */
export const MAX_HAR_CHARS = 64 * 1024 * 1024

function where(entry: HarEntry, base: string): string {
  return `entry ${entry.index} (${entry.method} ${base}${entry.path === '/' ? '' : entry.path})`
}

const textOf = (entry: HarEntry) => (entry.body === undefined ? undefined : new TextDecoder().decode(entry.body))

/** An answer's body as JSON (none: undefined), or why it is not. */
function jsonBody(entry: HarEntry): { value: JsonValue | undefined } | { problem: string } {
  const text = textOf(entry)
  if (text === undefined) return { value: undefined }
  try {
    return { value: parseExactJson(text) as JsonValue }
  } catch {
    const type = entry.contentType === undefined ? '' : ` (${entry.contentType.split(';')[0]})`
    return { problem: `the body is not JSON${type}` }
  }
}

/** The orders of the list's answer, or why they cannot be read. */
function listedOrders(list: HarEntry): ListedOrders | { problem: string } {
  const items = jsonBody(list)
  if ('problem' in items || !Array.isArray(items.value)) return { problem: 'the list of orders is not a JSON array' }
  try {
    return ordersFromList(items.value)
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) }
  }
}

const noOrders = (base: string, unread: boolean): ListedOrders => ({
  orders: [],
  statusRule: `${unread ? 'the 200 answer' : 'no 200 answer'} of GET ${base}/store/orders in the HAR${unread ? ' could not be read' : ''}, so no orders`,
  exposeStatus: false,
  leftOut: [],
})

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`

/** Why an entry holds no answer of the service's own (status 0: blocked or aborted; 304: the browser's cache answered). */
function unanswered(entry: HarEntry): { category: HarSkip; why: string } | undefined {
  if (entry.preflight) return { category: 'preflight', why: 'a CORS preflight, which the simulator answers itself' }
  if (entry.status === 304) return { category: 'cached', why: "304: the browser's cache answered" }
  if (entry.status < 200 || entry.status > 599)
    return { category: 'no answer', why: `status ${entry.status} is no answer a route can give` }
  return undefined
}

/** What an import gives: the scenario, and the lines a command prints about it (the skipped entries, the outcomes seen). */
export interface HarImport {
  scenario: Scenario
  /** `skipped 3: 1 not JSON, 1 image, 1 server error`, or undefined when every entry under the base was taken. */
  skipped: string | undefined
  /** describeTraffic's lines over every answer under the base. */
  traffic: string[]
}

type Skip = (entry: HarEntry, category: HarSkip, why: string) => void

/** The routes of the entries given, by the rule recording keeps: the first per method, path and query, within MAX_ROUTES. */
function routeTaker(rules: RecordSecrets, skip: Skip) {
  const routes: Route[] = []
  const routed = new Set<string>()
  const take = (entry: HarEntry) => {
    const target = `${entry.path}${entry.query === '' ? '' : `?${entry.query}`}`
    const answer = { method: entry.method, target, status: entry.status, headers: entry.headers, contentType: entry.contentType }
    const decision = routeOfAnswer({ ...answer, body: entry.body ?? new Uint8Array() }, rules)
    if ('skipped' in decision) return skip(entry, decision.category, decision.skipped)
    const { raw, ...held } = decision.route
    const route: Route = raw === undefined ? held : { ...held, body: raw.value() }
    const identity = routeIdentity(route)
    if (routed.has(identity)) return skip(entry, 'repeated', 'an earlier answer to the same method, path and query is taken')
    if (routes.length === MAX_ROUTES) return skip(entry, 'over the route limit', `a scenario holds at most ${MAX_ROUTES} routes`)
    routed.add(identity)
    routes.push(route)
  }
  return { routes, take }
}

/** What the entries under the base give: each answer (for the traffic lines), the list's and pets' entries taken, the routes. */
function sortEntries(entries: readonly HarEntry[], rules: RecordSecrets, skip: Skip) {
  const answers: TrafficAnswer[] = []
  let list: HarEntry | undefined
  const pets = new Map<string, HarEntry>()
  const routes = routeTaker(rules, skip)
  for (const entry of entries) {
    const none = unanswered(entry)
    if (none !== undefined) {
      skip(entry, none.category, none.why)
      continue
    }
    answers.push({ method: entry.method, path: entry.path, status: entry.status, headers: entry.headers, body: textOf(entry) })
    if (!(ROUTE_METHODS as readonly string[]).includes(entry.method)) {
      skip(entry, 'other method', `${entry.method} is no method a route answers`)
      continue
    }
    // Calls of a spec operation, by the simulator's own table, are the simulator's: the last list and each pet's last record are taken.
    const call = OPERATION_TABLE.match(entry.method, entry.path)
    const operation = 'operation' in call ? call.operation.id : undefined
    const taken = (earlier: HarEntry | undefined) => {
      if (earlier !== undefined) skip(earlier, 'spec operation', 'a later answer of the same operation is taken')
      return entry
    }
    if (operation === 'listOrders' && entry.status === 200) list = taken(list)
    else if (operation === 'getPetById' && entry.status === 200) {
      const id = 'param' in call ? call.param : ''
      pets.set(id, taken(pets.get(id)))
    } else if (operation !== undefined) skip(entry, 'spec operation', `the simulator answers ${operation} itself`)
    else routes.take(entry)
  }
  return { answers, list, pets, routes: routes.routes }
}

/** The orders and pet records of the entries taken; one that cannot be read is skipped. */
function readTaken(list: HarEntry | undefined, petEntries: ReadonlyMap<string, HarEntry>, skip: Skip) {
  let listed: ListedOrders | undefined
  if (list !== undefined) {
    const read = listedOrders(list)
    if ('problem' in read) skip(list, 'bad order list', read.problem)
    else listed = read
  }
  const pets: Record<string, JsonValue> = {}
  for (const [id, entry] of petEntries) {
    const record = jsonBody(entry)
    // A record the scenario cannot hold (a number past a double, nested too deep) is one entry skipped, not the import failed.
    const problem = 'problem' in record ? undefined : petRecordProblem(id, record.value ?? null)
    if ('problem' in record) skip(entry, 'not JSON', record.problem)
    else if (problem !== undefined) skip(entry, 'bad pet record', problem)
    // defineProperty, not assignment: a "__proto__" id stays a plain own property.
    else Object.defineProperty(pets, id, { value: record.value ?? null, enumerable: true, writable: true, configurable: true })
  }
  return { listed, pets }
}

/** The HAR's credentials, within what import-har searches for. */
function secretsOf(list: readonly unknown[]): Set<string> {
  const secrets = harSecrets(list)
  const chars = [...secrets].reduce((total, secret) => total + secret.length, 0)
  if (chars > MAX_SECRET_CHARS)
    fail(
      `The HAR's credentials (headers, cookies, tokens) come to ${chars} characters; import-har redacts at most ${MAX_SECRET_CHARS} (8 Mi).`,
    )
  return secrets
}

/**
 * Turns a HAR (DevTools, Playwright's `recordHar`) into a scenario, as `import-har --help` tells: the
 * orders, pet records and routes of the entries under the base, each route by the rule recording keeps
 * (record.ts `routeOfAnswer`), no credential copied (har-secrets.ts). An entry that cannot be taken is
 * skipped and counted; with `strict`, the first such answer is a one-line `HarImportError`, as is bad input.
 */
export function importHarReport(harText: string, options: { name: string; base?: string; strict?: boolean }): HarImport {
  if (harText.length > MAX_HAR_CHARS) fail(`The HAR is ${harText.length} characters long; the most read is ${MAX_HAR_CHARS} (64 MiB).`)
  const given = options.base ?? '/v1'
  if (!/^\/\S*$/.test(given)) fail(`--base must be a path starting with "/", such as /v1, got ${JSON.stringify(given)}.`)
  const base = given.replace(/\/+$/, '')
  const list = harEntries(harText)
  const { entries, outside } = entriesUnder(list, base)
  if (entries.length === 0)
    fail(`The HAR has no entry under ${base || '/'} (of its ${list.length} entries); give the API's base with --base.`)
  const secrets = secretsOf(list)
  const skipped = skippedEntries()
  skipped.add('outside the base', -1, '', outside)
  const skip: Skip = (entry, category, why) => skipped.add(category, entry.index, `${where(entry, base)}: ${why}.`)
  const sorted = sortEntries(entries, { holdsSecret: secretFinder(secrets), basePath: base }, skip)
  const { routes } = sorted
  let { listed, pets } = readTaken(sorted.list, sorted.pets, skip)
  const refused = skipped.refused()
  if (options.strict === true && refused !== undefined) fail(`${refused} Without --strict, such entries are skipped.`)
  const summary = skipped.summary()
  const petCount = Object.keys(pets).length
  // An empty scenario would differ from the default without a word: nothing taken is bad input.
  if (listed === undefined && petCount === 0 && routes.length === 0)
    fail(`Nothing under ${base || '/'} could be imported (no list of orders, pet record or route): ${summary ?? 'no entry'}.`)
  listed ??= noOrders(base, sorted.list !== undefined)
  const built: Scenario = {
    name: options.name,
    description: '',
    orders: listed.orders,
    ...(listed.exposeStatus ? { exposeStatus: true } : {}),
    ...(petCount > 0 ? { pets } : {}),
    ...(routes.length > 0 ? { routes } : {}),
  }
  const { value: scenario, redacted } = redactSecrets(built, secrets)
  const extra = [
    plural(routes.length, 'route'),
    ...(petCount > 0 ? [plural(petCount, 'pet record')] : []),
    ...(summary === undefined ? [] : [summary]),
    ...(redacted > 0 ? [`credentials the HAR carries read [redacted] in ${plural(redacted, 'value')}`] : []),
  ]
  scenario.description = describeOrders(`Imported from a HAR (base ${base || '/'})`, listed, extra)
  try {
    parseScenario(scenario, options.name)
  } catch (error) {
    if (isScenarioError(error)) fail(error.message)
    throw error
  }
  // The lines quote what the deployment sent (a code, a header): a credential the HAR carries reads [redacted] there too.
  const traffic = redactSecrets(describeTraffic(summarizeTraffic(sorted.answers)), secrets).value
  return { scenario, skipped: summary, traffic }
}

/** The scenario of a HAR, as `importHarReport` makes it. */
export function importHar(harText: string, options: { name: string; base?: string; strict?: boolean }): Scenario {
  return importHarReport(harText, options).scenario
}
