// The state's admin operations: the scenarios, a reset, the state served now and the request journal.
import { ApiError } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { quote } from '../quote-value.js'
import { isScenarioError } from '../scenario/scenario-error.js'
import { objectBody } from './admin-input.js'
import { operation } from './admin-operation.js'
import { readResetRequest } from './scenario-catalog.js'

export const STATE_OPERATIONS = {
  listScenarios: operation({
    method: 'GET',
    path: '/scenarios',
    tag: 'state',
    summary: 'List the scenarios a reset may name',
    description: 'The built-in scenarios, plus the file the server started with (by its name).',
    status: 200,
    answer: { description: 'The scenarios; `current` marks the one loaded in this state.', schema: 'ScenarioSummary[]' },
    run: ({ view, scenarios }) => {
      const current = view.scenario().name
      return [...scenarios.values()].map(({ name, description, builtin }) => ({ name, description, builtin, current: name === current }))
    },
  }),
  reset: operation({
    method: 'POST',
    path: '/reset',
    tag: 'state',
    summary: "Put the orders back to a scenario's initial state",
    description:
      "The current scenario without a body. Faults, latency and the rate limit go back to the server's own options. Over HTTP a scenario is named, never a path; the startup file's name re-reads that file.",
    body: { schema: 'ResetRequest', required: false },
    status: 200,
    answer: { description: 'The state after the reset.', schema: 'State' },
    errors: {
      400: 'invalid_request (the body is not a JSON object of scenario and seed, or the X-Sim-Session header is not a session id) or unknown_scenario (no scenario has that name).',
      409: 'scenario_file_invalid: the scenario file the server started with no longer loads (edited since). The orders are as they were.',
    },
    run: ({ view, scenarios, body }) => {
      const request = readResetRequest(objectBody(body), scenarios)
      try {
        void view.reset(request)
      } catch (error) {
        // The startup file may have been edited into something invalid: the request was fine, the server's file is not.
        if (!isScenarioError(error)) throw error
        const message =
          `The scenario file this server started with, ${quote(error.source)}, no longer loads: ${error.problem}. ` +
          'Fix the file and reset again; the orders are as they were.'
        throw new ApiError(409, ErrorCode.ScenarioFileInvalid, message)
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
