// Apart from sessions.ts, so that what reads a request's session (session-source.ts) needs nothing of how sessions are kept.

/** The header that gives a caller its own copy of the state. */
export const SESSION_HEADER = 'X-Sim-Session'
/** What a session id may be, wherever it is named. */
export const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/
