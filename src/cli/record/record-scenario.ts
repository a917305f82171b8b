import { parseExactJson, stringifyExactJson } from '../../core/exact-json.js'
import type { JsonValue } from '../../core/glossary.js'
import type { TrafficAnswer } from '../../core/outcome-coverage/traffic-outcomes.js'
import { int64Key } from '../../core/int64.js'
import { parseScenario } from '../../core/scenario/parse-scenario.js'
import type { Scenario } from '../../core/scenario/scenario.js'
import { isScenarioError } from '../../core/scenario/scenario-error.js'
import { DEFAULT_RATE, DEFAULT_TIMEOUT_SECONDS } from '../flags.js'
import { jsonOf } from '../verify/facts.js'
import { listOf } from '../verify/list-checks.js'
import { createProbeClient, type Observed } from '../verify/probe-client.js'
import { redactor } from '../verify/redact-key.js'
import { describeOrders, type ListedOrders, ordersFromList } from './orders-from-list.js'
import { authorization, readPaths, type Send } from './record-paths.js'

export interface RecordOptions {
  /** The deployment's base URL, without a trailing "/" (`parseRecordCommandLine` checks it). */
  target: string
  /** The bearer key sent; none: no Authorization (a server's start read without --proxy-key). */
  key: string | undefined
  /** The scenario's name (lower-case letters, digits and dashes). */
  name: string
  /** Also record `GET /pets/{petId}` for each petId the orders name (at most `MAX_RECORDED_PETS`). */
  pets: boolean
  /** Requests a second at most. Default 5. */
  rate?: number
  /** Per request, headers and body. Default 10 s. */
  timeoutMs?: number
  userAgent?: string
  /** Paths under the target (a query allowed), each read with GET and kept as a route as --record keeps one (`checkRecordPath` first). */
  paths?: readonly string[]
  /** Told each answer read (the list, each pet record, each path): what the traffic showed is summed from them. */
  onAnswer?: (answer: TrafficAnswer) => void
  /** Told one line for each path whose answer is not kept, and why: a skip is not a failure. */
  onSkipped?: (line: string) => void
}

/** A recording that cannot be made: the target unreachable, its list unreadable, or no loadable scenario. One line; exit 2. */
export class RecordError extends Error {
  override name = 'RecordError'
  /** The status the list was answered with, when that is why (a 401 asks for a key). */
  readonly status: number | undefined
  constructor(message: string, status?: number) {
    super(message)
    this.status = status
  }
}

/** The most pet records one recording asks for: at the default rate, 20 s. */
export const MAX_RECORDED_PETS = 100
/** The largest pet record kept, in bytes. */
export const MAX_RECORDED_PET_BYTES = 1024 * 1024
/** The most all pet records together may take, in bytes, so that the file stays well under what the simulator reads. */
export const MAX_RECORDED_PETS_BYTES = 16 * 1024 * 1024

/** `send`, telling `onAnswer` each answer as the traffic summary reads it (its body as text). */
function observing(send: Send, onAnswer: RecordOptions['onAnswer']): Send {
  if (onAnswer === undefined) return send
  return async (request) => {
    const observed = await send(request)
    if (observed.kind === 'answer')
      onAnswer({
        method: request.method,
        path: request.path,
        status: observed.status,
        headers: [...observed.headers],
        body: observed.body.length === 0 ? undefined : new TextDecoder().decode(observed.body),
      })
    return observed
  }
}

/** The Error code of an answer, when its body is an Error object, for a message. */
function codeOf(observed: Observed): string {
  if (observed.kind === 'failure') return ''
  const json = jsonOf(observed.body)?.value
  const code = typeof json === 'object' && json !== null && 'code' in json ? json.code : undefined
  return typeof code === 'string' ? ` ${JSON.stringify(code.slice(0, 80))}` : ''
}

/** The service's list as a scenario's orders; a list that cannot be read or held is a `RecordError`. */
async function readList(send: Send, options: RecordOptions): Promise<ListedOrders> {
  const observed = await send({ method: 'GET', path: '/store/orders', headers: authorization(options.key) })
  if (observed.kind === 'failure') throw new RecordError(`Failed to reach ${options.target}: ${observed.reason}.`)
  if (observed.status !== 200)
    throw new RecordError(
      `GET ${options.target}/store/orders answered ${observed.status}${codeOf(observed)}, not 200 with the list of orders.`,
      observed.status,
    )
  const list = listOf(observed)
  if ('problem' in list) throw new RecordError(`GET ${options.target}/store/orders did not answer a list of orders: ${list.problem}.`)
  try {
    return ordersFromList(list.orders)
  } catch (error) {
    throw new RecordError(`GET ${options.target}/store/orders: ${error instanceof Error ? error.message : String(error)}.`)
  }
}

/** Why a pet record cannot be a scenario's (not JSON it keeps, nested too deep, an id it cannot hold), or undefined. */
export function petRecordProblem(id: string, record: JsonValue): string | undefined {
  try {
    parseScenario({ name: 'pet-check', pets: { [id]: record } }, 'pet-check')
    return undefined
  } catch (error) {
    // The scenario's own words, without the check's made-up source.
    if (isScenarioError(error)) return error.message.replace(/^.*?pet-check[^:]*: /, '').replace(/\.$/, '')
    throw error
  }
}

/** `GET /pets/{petId}` for each petId the orders name, in order and bounded; the records, and a clause for the description. */
async function readPets(
  send: Send,
  key: string | undefined,
  petIds: readonly string[],
): Promise<{ pets: Record<string, JsonValue>; summary: string }> {
  const asked = petIds.slice(0, MAX_RECORDED_PETS)
  const pets: Record<string, JsonValue> = {}
  let notFound = 0
  let bytes = 0
  for (const id of asked) {
    const observed = await send({ method: 'GET', path: `/pets/${id}`, headers: authorization(key) })
    if (observed.kind === 'answer' && observed.status === 404) notFound++
    if (observed.kind !== 'answer' || observed.status !== 200 || observed.truncated || observed.body.length > MAX_RECORDED_PET_BYTES)
      continue
    if (bytes + observed.body.length > MAX_RECORDED_PETS_BYTES) continue
    const json = jsonOf(observed.body)
    if (json === undefined || petRecordProblem(id, json.value as JsonValue) !== undefined) continue
    pets[id] = json.value as JsonValue
    bytes += observed.body.length
  }
  const recorded = Object.keys(pets).length
  const others = asked.length - recorded - notFound
  const parts = [`${recorded} of ${asked.length} pet records (GET /pets/{petId})`]
  if (petIds.length > asked.length) parts.push(`the first ${asked.length} of ${petIds.length} petIds`)
  if (notFound > 0) parts.push(`${notFound} not found`)
  if (others > 0) parts.push(`${others} not recorded (not a 200 JSON record of at most 1 MiB, 16 MiB in all)`)
  return { pets, summary: parts.join(', ') }
}

/**
 * Reads a deployment's `GET /store/orders` (and, with `pets`, its pet
 * records) into a scenario that loads as it is: spaced to `rate`, each
 * request bounded by `timeoutMs` and 32 MiB, as `verify` probes. The key is
 * never in the scenario (anything the service echoes of it reads `[key]`):
 * the scenario lists no keys, so it accepts the usual test key. Throws a
 * `RecordError` when the list cannot be read or the result cannot load.
 */
export async function recordScenario(options: RecordOptions): Promise<Scenario> {
  const send = observing(
    createProbeClient({
      base: options.target,
      rate: options.rate ?? DEFAULT_RATE,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000,
      userAgent: options.userAgent ?? 'petstore-sim-record',
    }),
    options.onAnswer,
  )
  const redact = redactor(options.key ?? '')
  try {
    const listed = await readList(send, options)
    const petIds = [...new Set(listed.orders.flatMap((order) => int64Key(order.petId) ?? []))]
    const recordedPets = options.pets ? await readPets(send, options.key, petIds) : undefined
    const { paths = [] } = options
    const read = await readPaths(send, options.key, paths, (line) => options.onSkipped?.(redact(line)))
    const extra = [...(recordedPets === undefined ? [] : [recordedPets.summary]), ...(paths.length === 0 ? [] : [read.summary])]
    const scenario: Scenario = {
      name: options.name,
      description: describeOrders(`Recorded from ${options.target}`, listed, extra),
      orders: listed.orders,
      ...(listed.exposeStatus ? { exposeStatus: true } : {}),
      ...(recordedPets === undefined || Object.keys(recordedPets.pets).length === 0 ? {} : { pets: recordedPets.pets }),
      ...(read.routes.length === 0 ? {} : { routes: read.routes }),
    }
    // Whatever the service echoed of the key (in a pet record, say) reads [key], as verify's reports do.
    // A bearer token holds no character JSON escapes, so it is replaced in the text and read back.
    const text = stringifyExactJson(scenario)
    const safe = redact(text) === text ? scenario : (parseExactJson(redact(text)) as Scenario)
    parseScenario(safe, `recorded from ${options.target}`)
    return safe
  } catch (error) {
    if (isScenarioError(error)) throw new RecordError(redact(error.message))
    if (error instanceof RecordError) throw new RecordError(redact(error.message), error.status)
    throw error
  }
}
