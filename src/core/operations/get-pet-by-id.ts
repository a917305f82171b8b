import { ApiError } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import type { DeprecationDates } from '../glossary.js'
import { asRequested, JSON_HEADERS, preferredUnauthorized, type OperationDefinition } from './operation.js'
import { quote } from '../quote-value.js'

/** The dates announced when the simulator's options give none: the spec shows none. */
export const DEFAULT_DEPRECATION: Readonly<Record<keyof DeprecationDates, string>> = {
  deprecatedAt: '2026-01-01T00:00:00Z',
  sunsetAt: '2027-01-01T00:00:00Z',
}

/** The headers that announce the deprecation, on every answer of the operation. */
function deprecationHeaders(dates: DeprecationDates): Record<string, string> {
  return {
    // RFC 9745: a structured-field date, "@" then seconds since the epoch.
    Deprecation: `@${Math.floor(dates.deprecatedAt.getTime() / 1000)}`,
    // RFC 8594: an HTTP-date.
    Sunset: dates.sunsetAt.toUTCString(),
  }
}

const petNotFound = (param: string) => new ApiError(404, ErrorCode.PetNotFound, `Pet ${quote(param)} was not found in this scenario.`)

/** `GET /pets/{petId}`, deprecated: the scenario's opaque pet record, as declared. */
export const getPetById = {
  id: 'getPetById',
  method: 'GET',
  path: '/pets/{petId}',
  statuses: [200, 401, 404],
  headers: ({ deprecation }) => deprecationHeaders(deprecation),
  answer({ param, state }) {
    const body = state.settings().petBodies.get(param)
    if (body === undefined) throw petNotFound(param)
    return { status: 200, headers: JSON_HEADERS, body }
  },
  preferred(status, { param, state }) {
    if (status === 401) throw preferredUnauthorized()
    if (status === 404) throw asRequested(petNotFound(param))
    return { status: 200, headers: JSON_HEADERS, body: state.settings().petBodies.get(param) ?? '{}' }
  },
} as const satisfies OperationDefinition<'getPetById'>
