import { bearer, type Check, LIST, requestCheck } from './check.js'

const AUTH_FACTS = ['WWW-Authenticate']

/** A GET of the list with these headers (the side's key put in by `headers`), compared on status, code and WWW-Authenticate. */
function listWith(id: string, title: string, headers: (key: string, unknownKey: string) => Record<string, string>): Check {
  return requestCheck(
    id,
    title,
    (side, context) => ({ method: 'GET', path: LIST, headers: headers(side.key, context.unknownKey) }),
    AUTH_FACTS,
  )
}

/** Authentication (spec section 5) and the silences around it: WWW-Authenticate, the scheme's case, odd headers, which check comes first. */
export const AUTH_CHECKS: readonly Check[] = [
  listWith('auth.no-key', 'GET /store/orders without Authorization', () => ({})),
  listWith('auth.unknown-key', 'GET /store/orders with a key no one issued', (_key, unknownKey) => bearer(unknownKey)),
  listWith('auth.malformed', 'GET /store/orders with a token outside RFC 6750 ("Bearer ???")', () => ({ Authorization: 'Bearer ???' })),
  listWith('auth.other-scheme', 'GET /store/orders with the Basic scheme', () => ({ Authorization: 'Basic dmVyaWZ5OnZlcmlmeQ==' })),
  listWith('auth.scheme-lower-case', 'GET /store/orders with "bearer <key>"', (key) => ({ Authorization: `bearer ${key}` })),
  listWith('auth.scheme-upper-case', 'GET /store/orders with "BEARER <key>"', (key) => ({ Authorization: `BEARER ${key}` })),
  listWith('auth.spaces', 'GET /store/orders with several spaces after Bearer', (key) => ({ Authorization: `Bearer   ${key}` })),
  listWith('auth.extra-word', 'GET /store/orders with a word after the key', (key) => ({ Authorization: `Bearer ${key} extra` })),
  requestCheck(
    'auth.before-id',
    'DELETE /store/orders/abc without a key (which comes first: the key or the id)',
    () => ({ method: 'DELETE', path: `${LIST}/abc` }),
    AUTH_FACTS,
  ),
]
