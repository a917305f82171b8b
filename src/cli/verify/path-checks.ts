import { bearer, type Check, type CheckContext, LIST, requestCheck } from './check.js'
import type { ProbeRequest } from './probe-client.js'

const INT64_EDGES = ['9223372036854775807', '-9223372036854775808']

const NO_FREE_ID = 'the service\'s list could not be read, so no id is known to be free (a lenient service could read "1.5" as an order)'

/**
 * A DELETE of an id built from an id no order has, so that a service that
 * reads it leniently (`1.5` as 1, `007` as 7) still lands on no order:
 * these checks never cancel anything.
 */
function deleteId(
  id: string,
  title: string,
  path: (unknownId: string) => string,
  skip?: (context: CheckContext) => string | undefined,
): Check {
  return {
    ...requestCheck(id, title, (side, context) => ({
      method: 'DELETE',
      path: `${LIST}/${path(context.unknownId ?? '')}`,
      headers: bearer(side.key),
    })),
    skip: (context) => (context.unknownId === undefined ? NO_FREE_ID : skip?.(context)),
  }
}

/** A request with the side's key to `path`, compared on the `shown` headers too. */
function withKey(id: string, title: string, method: ProbeRequest['method'], path: string, shown: readonly string[] = []): Check {
  return requestCheck(id, title, (side) => ({ method, path, headers: bearer(side.key) }), shown)
}

/** Ids (spec 4.2 and its silences: invalid ids, leading zeros, percent-encoding) and paths that are no operation. */
export const PATH_CHECKS: readonly Check[] = [
  deleteId('id.unknown', 'DELETE an id no order has', (unknown) => unknown),
  deleteId('id.letters', 'DELETE /store/orders/abc', () => 'abc'),
  deleteId('id.decimal', 'DELETE a decimal id (<free id>.5)', (unknown) => `${unknown}.5`),
  deleteId(
    'id.overflow',
    'DELETE /store/orders/9223372036854775808 (one past int64)',
    () => '9223372036854775808',
    (context) =>
      INT64_EDGES.some((edge) => context.serviceIds.has(edge))
        ? 'the service holds an order at an end of the int64 range, where a service that clamps or wraps the id would land'
        : undefined,
  ),
  deleteId('id.leading-zeros', 'DELETE a free id with leading zeros (000<id>)', (unknown) => `000${unknown}`),
  deleteId('id.percent-encoded', 'DELETE a free id with its first digit percent-encoded', (unknown) =>
    unknown.replace(/^\d/, (digit) => `%3${digit}`),
  ),
  deleteId('id.bad-escape', 'DELETE /store/orders/%zz (a malformed escape)', () => '%zz'),
  withKey('path.unknown', 'GET an unknown path under the base (/store/no-such-path)', 'GET', '/store/no-such-path'),
  withKey('path.letter-case', 'GET /STORE/orders (paths are case-sensitive)', 'GET', '/STORE/orders'),
  withKey('path.doubled-slash', 'GET //store/orders (an empty segment)', 'GET', `/${LIST}`),
  withKey('method.head', 'HEAD /store/orders', 'HEAD', LIST, ['Allow']),
  withKey('method.options', 'OPTIONS /store/orders', 'OPTIONS', LIST, ['Allow']),
]
