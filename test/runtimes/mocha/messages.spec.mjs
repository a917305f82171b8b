// Written to .runtimes/mocha/ beside docs/runtimes.md's spec: the failure messages of chai's to.have.received,
// which run.mjs compares with those of vitest's toHaveReceived.
import { writeFileSync } from 'node:fs'
import * as chai from 'chai'
import { createSimulator } from 'petstore-orders-simulator'
import received from 'petstore-orders-simulator/chai'

chai.use(received)

const failureOf = (assert) => {
  try {
    assert()
  } catch (error) {
    return error.message
  }
  return 'passed'
}

it('writes the failure messages of to.have.received', async () => {
  const sim = createSimulator({ scenario: 'pending' })
  await sim.fetch('https://api.petstore.example/v1/store/orders/1', { method: 'DELETE' })
  const messages = [
    failureOf(() => chai.expect(sim).to.have.received({ operation: 'cancelOrder', orderId: 1, status: 204 }, { times: 1 })),
    failureOf(() => chai.expect(sim).not.to.have.received()),
    failureOf(() => chai.expect({}).to.have.received()),
    failureOf(() => chai.expect(sim).to.have.received({ status: 401 }, { times: 1 })),
  ]
  writeFileSync('messages.json', JSON.stringify(messages))
})
