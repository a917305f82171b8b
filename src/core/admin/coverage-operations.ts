// Outcome coverage: which of the service's documented outcomes the state's answers were (docs/coverage.md).
import { operation } from './admin-operation.js'

export const COVERAGE_OPERATIONS = {
  getCoverage: operation({
    method: 'GET',
    path: '/coverage',
    tag: 'coverage',
    summary: "Which of the service's documented outcomes were answered, and how often",
    description:
      'Every outcome of the OpenAPI document (listOrders.200.empty, cancelOrder.409.order_already_shipped…) with its count, 0 for those never answered; what faults, latency, Prefer and the rate limit provoked is counted apart. Counts outlive resets and DELETE /__sim/requests. Per session with X-Sim-Session.',
    status: 200,
    answer: { description: 'The coverage, as sim.coverage() gives it and petstore-sim coverage merges it.', schema: 'Coverage' },
    run: ({ view }) => view.coverage(),
  }),
  clearCoverage: operation({
    method: 'DELETE',
    path: '/coverage',
    tag: 'coverage',
    summary: 'Start coverage over',
    status: 204,
    answer: { description: 'Every count is back to 0.' },
    run: ({ view }) => view.clearCoverage(),
  }),
}
