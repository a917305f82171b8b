import type { Controls } from '../controls/controls.js'
import type { CoverageCounter } from '../outcome-coverage/coverage-counter.js'
import type { Fault } from '../controls/faults.js'
import type { Int64Key } from '../int64.js'
import type { ApiPath } from '../operations/api-path.js'
import type { OperationConfig, OperationState } from '../operations/operation.js'
import type { ApiBase, Operation } from '../operations/routing.js'
import type { Given } from '../pact/provider-states.js'
import type { Reply, SimRequest } from '../reply.js'
import type { NamedSession, SessionHeader } from '../simulator/session-source.js'
import type { RouteBook } from '../routes/route-book.js'
import type { HeldRoute } from '../routes/route-table.js'
import type { Arrival, JournalWriter } from '../state/journal.js'
import type { TimeSource } from '../time-source.js'
import type { ErrorReporter } from './error-reporter.js'

/** One independent state a request acts on: orders, settings, controls, journal. */
export interface Instance extends OperationState {
  controls: Controls
  journal: JournalWriter
  /** Answers for what the spec does not show: the scenario's routes and those recorded since. */
  routes: RouteBook
  /** Which documented outcomes its answers were, across resets (docs/coverage.md). */
  coverage: CoverageCounter
  /** Set on a session that had been dropped and was made afresh, until its first journal entry says so. */
  recreatedUnannounced?: boolean
}

/** Headers no operation adds: compared by identity, so that no copy is made. */
export const NO_HEADERS: Readonly<Record<string, string>> = {}

/** Where requests no operation or route takes are forwarded, and whether their answers are recorded as routes. */
export interface ProxySetup {
  /** The real deployment's API base URL, without a trailing "/". */
  target: string
  /** The real service's key, sent instead of the client's Authorization; never logged or journalled. */
  key?: string | undefined
  timeoutMs: number
  record: boolean
  /** Forwards a request no operation or route takes (proxy/forward-request.ts, bound by platform/node/proxy-option.ts). */
  forward(context: RequestContext, instance: Instance): Promise<Reply>
  /** While recording: whether a recorded route answers a request to `target` (record.ts `replaysAsRecorded`). */
  replays(route: HeldRoute, target: string): boolean
}

/** What the dispatcher reads from the simulator on every request. */
export interface DispatchContext {
  base: ApiBase
  /**
   * The state a request acts on: the session `named` (by X-Sim-Session or W3C Baggage, session-source.ts),
   * else the default one; throws the 400 or 401 to answer.
   */
  instanceFor(request: SimRequest, named: NamedSession | null): Instance
  /** Where a request is recorded when it reaches no instance. */
  journal: JournalWriter
  /** The simulator's own deprecation dates, for the headers of a state without its own. */
  config: OperationConfig
  /** Leave requests under the base that match no operation to other handlers instead of answering 404/405. */
  fallthrough: boolean
  /** Requests declaring a larger body get 413, as the standalone server does. */
  bodyLimit: number
  /** Told of every error answered 500 `internal_error`. */
  report: ErrorReporter
  /** The time the journal records and the latency waits by; the machine's by default. */
  time?: TimeSource
  /** Forward what no operation or route takes to a real deployment (docs/proxy.md); null or absent: nowhere. */
  proxy?: ProxySetup | null
}

/** The dispatcher's context with its defaults filled in: what every step reads. */
export type DispatchSetup = DispatchContext & { time: TimeSource; proxy: ProxySetup | null }

/**
 * One request on its way through the dispatch steps: what it is, the state it reaches, and what its
 * answer is made with. What answered it is the dispatcher's record (dispatcher.ts), never a step's.
 */
export interface RequestContext {
  readonly setup: DispatchSetup
  readonly request: SimRequest
  /** The operation the request asks for, or null for a request under the base that none takes. */
  readonly operation: Operation | null
  /** The decoded path parameter, or "". */
  readonly param: string
  /** The order the request acts on (a valid int64 path id), else null. */
  readonly orderId: Int64Key | null
  /**
   * The path under the base as the table and forwarding read it (api-path.ts); null for an operation's
   * request, and for one no route or target may take (the base or an operation's path in another case).
   */
  readonly path: ApiPath | null
  /** When it arrived (the wall clock for the journal entry, the monotonic one for its duration), and the tests running then. */
  readonly arrived: Arrival & { readonly tests: readonly string[] }
  /** The header that named its session, for the journal; null when it named none (the default state). */
  readonly namedBy: SessionHeader | null
  /** The state it acts on; null when none could be found or made (`refusal` says why). */
  readonly instance: Instance | null
  /** Why no state was found: the error to answer once the body limit is checked. */
  readonly refusal: unknown
  /** What the answer depends on as the request arrived (a cancelled order's status), for a pact's provider state. */
  readonly given: Given | null
  /** The fault that fires for it, if any: it answers instead of the rules, or changes their answer. */
  fault: Fault | undefined
  /** Headers the steps add to the answer, errors included: RateLimit ones, Preference-Applied. */
  extra: Record<string, string> | undefined
}

/**
 * One step of the dispatch: reads the request's context, then goes on
 * (undefined), answers (a reply, which skips the steps after it) or throws the
 * error to answer; a promise of these only when it has to wait.
 */
export type Step = (context: RequestContext) => Reply | undefined | Promise<Reply | undefined>
