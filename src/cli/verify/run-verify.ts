import type { Scenario } from '../../core/scenario/scenario.js'
import { isScenarioError } from '../../core/scenario/scenario-error.js'
import { checkReachablePath } from '../../core/simulator/options.js'
import { ValidationError } from '../../core/validation-error.js'
import { startSimulatorServer } from '../../transports/standalone/start-server.js'
import { AUTH_CHECKS } from './auth-checks.js'
import { calibratedScenario, mergeCalibrations, type VerifySimulatorOptions } from './calibration.js'
import { bearer, type Calibration, type Check, type CheckContext, LIST, type Side } from './check.js'
import { differingFacts, type Facts } from './facts.js'
import { idsOf, LIST_CHECKS, listOf } from './list-checks.js'
import { ORDER_CHECKS } from './order-checks.js'
import { PATH_CHECKS } from './path-checks.js'
import { createProbeClient, type Observed } from './probe-client.js'
import { redactor } from './redact-key.js'

/** Every check, in the order they run and are reported. */
const CHECKS: readonly Check[] = [...AUTH_CHECKS, ...LIST_CHECKS, ...PATH_CHECKS, ...ORDER_CHECKS]

export interface VerifyPlan {
  /** The service's base URL, without a trailing "/". */
  target: string
  key: string
  rate: number
  timeoutMs: number
  userAgent: string
  simulator: VerifySimulatorOptions
  pet?: string
  shippedOrder?: string
  pendingOrder?: string
}

export type CheckResult = { id: string; title: string } & (
  | { outcome: 'skipped'; reason: string }
  | {
      outcome: 'match' | 'differs'
      service: Facts
      simulator: Facts
      /** The facts that differ. */
      differing: string[]
      /** On `differs`: the switches that make the simulator give the service's answer, or null when none does. */
      switch: Calibration | null
    }
)

export interface VerifyOutcome {
  results: CheckResult[]
  /** Every verified switch, merged: what `--write-options` adds to the scenario in force. */
  calibration: Calibration
  scenario: Scenario
}

/** After this many requests in a row without an answer, the service is taken to have stopped answering. */
const MAX_SILENT_IN_A_ROW = 3

/** The service stopped answering (timeouts, resets): the checks left are skipped rather than each waiting out its timeout. */
class ServiceSilentError extends Error {
  override name = 'ServiceSilentError'
}

/** The service could not be reached at all (refused, no such host, TLS): exit 2. */
export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError'
}

const UNKNOWN_KEY = 'petstore-verify-unknown-key'
/** Where the search for an id no order has starts: within int32, so a service with 32-bit ids reads it too. */
const FIRST_FREE_ID = 987654321n

/**
 * The path the simulator serves the API under: the target's, or /v1 where a
 * simulator cannot serve that one (a percent-escape, an empty segment, under
 * /__sim). No fact a check compares depends on it: requests are relative to it.
 */
function simulatorBasePath(target: string): string {
  const path = new URL(target).pathname.replace(/\/+$/, '') || '/'
  try {
    return checkReachablePath(path)
  } catch (error) {
    if (error instanceof ValidationError) return '/v1'
    throw error
  }
}

/** Runs `use` against a fresh simulator server (loopback, port 0, no admin API) loading `scenario`. */
async function withSimulator<T>(scenario: Scenario, plan: VerifyPlan, use: (side: Side) => Promise<T>): Promise<T> {
  const basePath = simulatorBasePath(plan.target)
  const running = await startSimulatorServer({ scenario, basePath, port: 0, host: '127.0.0.1', admin: false, onError: () => {} })
  try {
    const send = createProbeClient({
      base: running.url,
      rate: Number.POSITIVE_INFINITY,
      timeoutMs: plan.timeoutMs,
      userAgent: plan.userAgent,
    })
    const { sim } = running
    return await use({
      send,
      key: sim.state().apiKeys[0] ?? UNKNOWN_KEY,
      async arrange(id, status) {
        if (sim.order(id) === undefined) await sim.addOrder({ id, status })
        else await sim.updateOrder(id, { status })
      },
    })
  } finally {
    await running.close()
  }
}

async function contextFor(plan: VerifyPlan, service: Side, scenario: Scenario): Promise<CheckContext> {
  const serviceList = listOf(await service.send({ method: 'GET', path: LIST, headers: bearer(service.key) }))
  const serviceIds = new Set('orders' in serviceList ? idsOf(serviceList.orders) : [])
  const simulatorIds = await withSimulator(scenario, plan, async (side) => {
    const list = listOf(await side.send({ method: 'GET', path: LIST, headers: bearer(side.key) }))
    return new Set('orders' in list ? idsOf(list.orders) : [])
  })
  let free = FIRST_FREE_ID
  while (serviceIds.has(String(free)) || simulatorIds.has(String(free))) free++
  return {
    unknownId: 'orders' in serviceList ? String(free) : undefined,
    serviceIds,
    unknownKey: plan.key === UNKNOWN_KEY ? `${UNKNOWN_KEY}-2` : UNKNOWN_KEY,
    pet: plan.pet,
    shippedOrder: plan.shippedOrder,
    pendingOrder: plan.pendingOrder,
  }
}

/** The service's side: rate-limited; its very first request tells whether it can be reached at all. */
function serviceSide(plan: VerifyPlan): Side {
  const send = createProbeClient({ base: plan.target, rate: plan.rate, timeoutMs: plan.timeoutMs, userAgent: plan.userAgent })
  const redact = redactor(plan.key)
  let answered = false
  let silent = 0
  return {
    key: plan.key,
    async send(request): Promise<Observed> {
      if (silent >= MAX_SILENT_IN_A_ROW) throw new ServiceSilentError()
      const observed = await send(request)
      if (observed.kind === 'failure' && observed.unreachable && !answered) throw new TargetUnreachableError(observed.reason)
      answered = true
      silent = observed.kind === 'failure' ? silent + 1 : 0
      if (observed.kind === 'failure') return { ...observed, reason: redact(observed.reason) }
      // A service that echoes the key (a message, a pet record, a header) must not put it into a report or a scenario
      // file: redacted here, before a report quotes only the start of a long value, where a key cut in two would show.
      const text = new TextDecoder().decode(observed.body)
      const redacted = redact(text)
      const headers = new Headers([...observed.headers].map(([name, value]): [string, string] => [name, redact(value)]))
      return { ...observed, headers, ...(redacted === text ? {} : { body: new TextEncoder().encode(redacted) }) }
    },
    // The service's orders are as they are: the user named them for their state.
    arrange: async () => {},
  }
}

/**
 * What a simulator with a proposed switch answers, or undefined when no
 * scenario can hold the switch (a date past 9999, a record nested too deep):
 * then there is no switch for that check, and the run goes on.
 */
async function trialFacts(trial: Scenario, plan: VerifyPlan, check: Check, context: CheckContext): Promise<Facts | undefined> {
  try {
    return await withSimulator(trial, plan, (side) => check.probe(side, context))
  } catch (error) {
    if (isScenarioError(error)) return undefined
    throw error
  }
}

/** Probes the service with every check, compares each with the simulator, and finds the switches that close a difference. */
export async function runVerify(plan: VerifyPlan): Promise<VerifyOutcome> {
  const service = serviceSide(plan)
  const scenario = calibratedScenario(plan.simulator, {})
  const context = await contextFor(plan, service, scenario)
  const results: CheckResult[] = []
  let calibration: Calibration = {}
  for (const check of CHECKS) {
    const reason = check.skip?.(context)
    if (reason !== undefined) {
      results.push({ id: check.id, title: check.title, outcome: 'skipped', reason })
      continue
    }
    let serviceFacts: Facts
    try {
      serviceFacts = await check.probe(service, context)
    } catch (error) {
      if (!(error instanceof ServiceSilentError)) throw error
      const reason = `stopped: the service left the last ${MAX_SILENT_IN_A_ROW} requests without an answer`
      results.push({ id: check.id, title: check.title, outcome: 'skipped', reason })
      continue
    }
    const simulatorFacts = await withSimulator(scenario, plan, (side) => check.probe(side, context))
    const differing = differingFacts(serviceFacts, simulatorFacts)
    let found: Calibration | null = null
    const proposal = differing.length === 0 ? undefined : check.propose?.(serviceFacts, context)
    if (proposal !== undefined) {
      // Offered only when a simulator with it gives the service's answer: a switch is never a guess.
      const facts = await trialFacts(calibratedScenario(plan.simulator, proposal), plan, check, context)
      if (facts !== undefined && differingFacts(serviceFacts, facts).length === 0) found = proposal
    }
    if (found !== null) calibration = mergeCalibrations(calibration, found)
    const outcome = differing.length === 0 ? 'match' : 'differs'
    results.push({ id: check.id, title: check.title, outcome, service: serviceFacts, simulator: simulatorFacts, differing, switch: found })
  }
  return { results, calibration, scenario: calibratedScenario(plan.simulator, calibration) }
}
