// The state's admin operations: a reset, the state served now and the request journal.
import { isScenarioError } from '../scenario/scenario-error.js'
import { objectBody } from './admin-input.js'
import { operation } from './admin-operation.js'
import { readResetRequest, scenarioFileInvalid } from './scenario-catalog.js'

export const STATE_OPERATIONS = {
  reset: operation({
    method: 'POST',
    path: '/reset',
    tag: 'state',
    summary: "Put the orders back to a scenario's initial state",
    description:
      "The current scenario without a body. Faults, latency and the rate limit go back to the server's own options. Over HTTP a scenario is named, never a path; the startup file's name, or a folder file's, re-reads that file.",
    body: { schema: 'ResetRequest', required: false },
    status: 200,
    answer: { description: 'The state after the reset.', schema: 'State' },
    errors: {
      400: 'invalid_request (the body is not a JSON object of scenario and seed, or the X-Sim-Session header is not a session id) or unknown_scenario (no scenario has that name).',
      409: 'scenario_file_invalid: the scenario file named (the one the server started with, or a file of the scenarios folder) does not load now: edited since, or it never did (its error is listed by GET /__sim/scenarios). The orders are as they were.',
    },
    run: ({ view, scenarios, body }) => {
      const request = readResetRequest(objectBody(body), scenarios.available())
      try {
        void view.reset(request)
      } catch (error) {
        // The startup file or a folder's may have been edited into something invalid: the request was fine, the file is not.
        if (isScenarioError(error)) throw scenarioFileInvalid(error, scenarios.started)
        throw error
      }
      return view.state()
    },
  }),
  getState: operation({
    method: 'GET',
    path: '/state',
    tag: 'state',
    summary: 'What the simulator serves now',
    status: 200,
    answer: { description: 'The scenario, the options in force and every order with its status.', schema: 'State' },
    run: ({ view }) => view.state(),
  }),
  listRequests: operation({
    method: 'GET',
    path: '/requests',
    tag: 'journal',
    summary: 'The request journal, oldest first',
    description:
      'The last requests the simulated API answered (admin calls are not recorded), bounded by --journal-size and 256 KiB. Every query field given must match; a field given twice is a 400.',
    query: {
      operation: { schema: 'OperationId' },
      method: { schema: 'RequestMethod', description: 'Compared ignoring case.' },
      orderId: {
        schema: 'RequestOrderId',
        description: 'The order a cancel acted on, compared as an int64.',
      },
      status: {
        schema: 'RequestStatus',
        description: 'An HTTP status, or 0 for requests that got no answer.',
      },
    },
    status: 200,
    answer: { description: 'The matching entries.', schema: 'JournalEntry[]' },
    run: ({ view, query }) => view.requests(query),
  }),
  clearRequests: operation({
    method: 'DELETE',
    path: '/requests',
    tag: 'journal',
    summary: 'Empty the journal',
    status: 204,
    answer: { description: 'The journal is empty.' },
    run: ({ view }) => view.journal.clear(),
  }),
}
