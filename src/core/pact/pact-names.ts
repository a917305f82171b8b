import { describe } from '../quote-value.js'
import { ValidationError } from '../validation-error.js'

/** Who a pact is between. */
export interface PactOptions {
  /** The consumer's name, which the pact file is named after: letters, digits, `.`, `_` and `-`, at most 64. */
  consumer: string
  /** Default `"petstore-orders-service"`. */
  provider?: string
}

const DEFAULT_PROVIDER = 'petstore-orders-service'
/** A name safe in a file name (`pacts/<consumer>-<provider>.json`) and in a URL, with no path in it. */
const PACTICIPANT = /^[A-Za-z0-9._-]{1,64}$/

function checkName(value: unknown, field: 'consumer' | 'provider'): string {
  if (typeof value !== 'string' || !PACTICIPANT.test(value) || value === '.' || value === '..')
    throw new ValidationError(field, `"${field}" must be 1 to 64 letters, digits, ".", "_" or "-", got ${describe(value)}.`)
  return value
}

/** The consumer and provider of a pact, checked; a `ValidationError` names the field at fault. */
export function checkPactNames(options: unknown): { consumer: string; provider: string } {
  const given = typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {}
  if (given['consumer'] === undefined)
    throw new ValidationError('consumer', '"consumer" is required: the name of the consuming app, e.g. "orders-web".')
  return {
    consumer: checkName(given['consumer'], 'consumer'),
    provider: given['provider'] === undefined ? DEFAULT_PROVIDER : checkName(given['provider'], 'provider'),
  }
}
