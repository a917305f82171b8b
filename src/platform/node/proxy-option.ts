import { isBearerToken } from '../../core/bearer-auth.js'
import type { ProxySetup } from '../../core/dispatch/request-context.js'
import type { ProxyOption } from '../../core/platform.js'
import { answerBudget } from '../../core/proxy/answer-budget.js'
import { DEFAULT_PROXY_TIMEOUT_MS } from '../../core/proxy/forward.js'
import { forwardRequest } from '../../core/proxy/forward-request.js'
import { replaysAsRecorded } from '../../core/proxy/record.js'
import { ValidationError } from '../../core/validation-error.js'

/**
 * What all forwarded answers being read may hold at once. Four answers at their own bound (32 MiB,
 * forward.ts) fit, or a hundred of 1 MiB: enough for a test suite's concurrency, while a burst of large
 * answers cannot take more than this beside the sessions' 256 MiB. Past it, 503 `service_unavailable`.
 */
const ANSWER_BUDGET_BYTES = 128 * 1024 * 1024

/** Not a public option: a test sets a small total through it (`{ ...proxy, [ANSWER_BUDGET_TOTAL]: 4096 }`). */
export const ANSWER_BUDGET_TOTAL = Symbol('petstore-orders-simulator proxy answer budget, for tests')

/**
 * The target as a message may show it: scheme, host and path; never user info or a query, which may
 * hold secrets. Text that is no URL with a host ("user:pw@host" reads as scheme "user:") is not echoed.
 */
function shownTarget(url: URL | null): string {
  if (url === null || url.host === '') return 'text that is not a URL with a host (not shown)'
  const dropped = [url.username !== '' || url.password !== '' ? 'user info' : '', url.search !== '' ? 'a query' : ''].filter(Boolean)
  return `"${url.protocol}//${url.host}${url.pathname}"${dropped.length === 0 ? '' : ` with ${dropped.join(' and ')} (not shown)`}`
}

/** Checks the `proxy` option. A message never holds the key, a password or a query. */
export function checkProxyOption(option: ProxyOption): ProxySetup {
  const { target, key, timeoutSeconds = DEFAULT_PROXY_TIMEOUT_MS / 1000, record = false } = option
  const url = URL.canParse(target) ? new URL(target) : null
  if (!/^https?:$/.test(url?.protocol ?? '') || url?.search !== '' || url.username !== '' || url.password !== '')
    throw new ValidationError(
      'proxy.target',
      `proxy.target must be the http(s) URL of the real service's API base, with no query or user info, such as https://staging.example.test/v1, got ${shownTarget(url)}.`,
    )
  if (key !== undefined && !isBearerToken(key)) throw new ValidationError('proxy.key', 'proxy.key must be a bearer token.')
  if (!(timeoutSeconds > 0 && timeoutSeconds <= 600))
    throw new ValidationError('proxy.timeoutSeconds', `proxy.timeoutSeconds must be above 0 and at most 600, got "${timeoutSeconds}".`)
  if (typeof record !== 'boolean') throw new ValidationError('proxy.record', 'proxy.record must be true or false.')
  const total = (option as { [ANSWER_BUDGET_TOTAL]?: unknown })[ANSWER_BUDGET_TOTAL]
  const budget = answerBudget(typeof total === 'number' ? total : ANSWER_BUDGET_BYTES)
  const setup: ProxySetup = {
    target: url.href.replace(/\/+$/, ''),
    key,
    timeoutMs: Math.round(timeoutSeconds * 1000),
    record,
    forward: (context, instance) => forwardRequest(context, instance, setup, budget),
    replays: (route, target) => replaysAsRecorded(route, target, key),
  }
  return setup
}
