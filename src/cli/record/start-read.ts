import { parseExactJson, stringifyExactJson } from '../../core/exact-json.js'
import { describeTraffic, summarizeTraffic, type TrafficAnswer } from '../../core/outcome-coverage/traffic-outcomes.js'
import type { ProxyOption } from '../../core/platform.js'
import { isPlainObject } from '../../core/scenario/plain-object.js'
import { type Route, routeIdentity } from '../../core/routes/route-path.js'
import type { Scenario } from '../../core/scenario/scenario.js'
import { escapeControls } from '../terminal-text.js'
import { CliUsageError } from '../usage-error.js'
import { redactor } from '../verify/redact-key.js'
import { RecordError, recordScenario } from './record-scenario.js'

// The server's `--proxy <url> --record`: one pass from a deployment. Its orders (and pets) are read
// before the server starts, as `petstore-sim record` reads them; each save then says what the traffic showed.

/** The name of the scenario a start read makes: the ready line and a save's description name it. */
const START_SCENARIO_NAME = 'deployment'

/** What a start read gives: the scenario the state starts from, the answers it read, and a clause for the ready line. */
export interface StartRead {
  scenario: Scenario
  answers: TrafficAnswer[]
  origin: string
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`

/**
 * Reads the deployment behind `proxy` (its key, its timeout) into the scenario the state starts from.
 * A failure is a `CliUsageError` of one line naming the target, never the key, and what to do.
 */
export async function readDeploymentAtStart(proxy: ProxyOption, pets: boolean, userAgent: string): Promise<StartRead> {
  const target = proxy.target.replace(/\/+$/, '')
  const answers: TrafficAnswer[] = []
  const redact = redactor(proxy.key ?? '')
  try {
    const scenario = await recordScenario({
      target,
      key: proxy.key,
      name: START_SCENARIO_NAME,
      pets,
      ...(proxy.timeoutSeconds === undefined ? {} : { timeoutMs: proxy.timeoutSeconds * 1000 }),
      userAgent,
      onAnswer: (answer) => answers.push(answer),
    })
    const petCount = Object.keys(scenario.pets ?? {}).length
    const read = `${plural(scenario.orders?.length ?? 0, 'order')}${pets ? ` and ${plural(petCount, 'pet record')}` : ''}`
    return { scenario, answers, origin: `${read} read from ${target} at start` }
  } catch (error) {
    const status = error instanceof RecordError ? error.status : undefined
    const what =
      status === 401 || status === 403
        ? `${proxy.key === undefined ? 'Give its key with' : 'Check'} --proxy-key (or PETSTORE_SIM_PROXY_KEY), or`
        : 'Check --proxy, or'
    const problem = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)
    throw new CliUsageError(
      escapeControls(
        redact(
          `Failed to start from the deployment's orders: ${problem} ${what} start from a scenario with --scenario <name|path> ` +
            '(then nothing is read at start).',
        ),
      ),
    )
  }
}

/** The keys of routes a state starts with: a save's summary counts only the routes recorded since. */
export const routeKeys = (routes: readonly { method: string; path: string; query?: Record<string, string> }[]) =>
  new Set(routes.map(routeIdentity))

/** A saved route as an answer the traffic summary reads: its body as the text it is answered with. */
function routeAnswer(route: Record<string, unknown>): TrafficAnswer | undefined {
  const { method, path, status, headers = {}, body } = route
  if (typeof method !== 'string' || typeof path !== 'string' || typeof status !== 'number' || !isPlainObject(headers)) return undefined
  const pairs = Object.entries(headers).filter((pair): pair is [string, string] => typeof pair[1] === 'string')
  const type = pairs.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? 'application/json'
  // A string under a type that is not JSON is answered as it is; any other body as JSON text.
  const text = body === undefined ? undefined : typeof body === 'string' && !/json/i.test(type) ? body : stringifyExactJson(body)
  return { method, path, status, headers: pairs, body: text }
}

/**
 * The lines a save prints: what was written, then what the traffic showed (the start read's answers and
 * each route of the saved file the state did not start with). `text` is the saved file's.
 */
export function savedTrafficLines(
  file: string,
  text: string,
  started: { answers: readonly TrafficAnswer[]; routes: ReadonlySet<string> },
  key: string | undefined,
): string[] {
  const saved = parseExactJson(text)
  const routes = isPlainObject(saved) && Array.isArray(saved['routes']) ? saved['routes'].filter(isPlainObject) : []
  const orders = isPlainObject(saved) && Array.isArray(saved['orders']) ? saved['orders'].length : 0
  // The file was checked as it was saved: its routes have their fields.
  const recorded = routes.filter((route) => !started.routes.has(routeIdentity(route as unknown as Route)))
  const answers = [...started.answers, ...recorded.flatMap((route) => routeAnswer(route) ?? [])]
  const redact = redactor(key ?? '')
  return [
    `Saved ${file}: ${plural(orders, 'order')}, ${plural(routes.length, 'route')}.`,
    ...describeTraffic(summarizeTraffic(answers)),
  ].map((line) => escapeControls(redact(line)))
}
