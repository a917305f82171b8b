// The sessions: separate states per X-Sim-Session, listed and ended here.
import { removedOr404 } from './admin-input.js'
import { operation } from './admin-operation.js'

export const SESSION_OPERATIONS = {
  listSessions: operation({
    method: 'GET',
    path: '/sessions',
    tag: 'sessions',
    summary: 'The live sessions',
    description:
      'Least recently used first. Sessions are bounded in number and in bytes; one is dropped only when idle or ended, never to make room (a new one gets 503 too_many_sessions instead).',
    status: 200,
    answer: { description: 'The sessions.', schema: 'Session[]' },
    run: ({ sim }) => sim.sessions(),
  }),
  endSession: operation({
    method: 'DELETE',
    path: '/sessions/{sessionId}',
    tag: 'sessions',
    summary: 'End a session',
    params: { sessionId: { schema: 'SessionId' } },
    status: 204,
    answer: { description: 'The session is gone.' },
    errors: { 404: 'not_found: no live session has that id.' },
    run: ({ sim, params }) => removedOr404(sim.endSession(params['sessionId'] ?? ''), 'session', params['sessionId']),
  }),
}
