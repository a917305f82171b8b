// A consumer's test against the simulator's image, started by Testcontainers: cancel order 1, then
// read from the admin API's journal what the simulator received. Run it with `npm test` (Node.js 22+)
// where Docker, or podman's Docker-compatible socket (DOCKER_HOST), runs containers.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { GenericContainer, Wait } from 'testcontainers'

const IMAGE = process.env.PETSTORE_SIM_IMAGE ?? 'petstore-orders-simulator:0.1.0'
const ADMIN_TOKEN = 'testcontainers-admin-token'
const KEY = { Authorization: 'Bearer petstore-test-key' }

let simulator
let origin

before(async () => {
  simulator = await new GenericContainer(IMAGE)
    .withExposedPorts(4010)
    .withEnvironment({ PETSTORE_SIM_SCENARIO: 'pending', PETSTORE_SIM_ADMIN_TOKEN: ADMIN_TOKEN })
    .withWaitStrategy(Wait.forHttp('/__sim/health', 4010).forStatusCode(200))
    .start()
  // Not always localhost: under podman the container is reached at the bridge's gateway address.
  origin = `http://${simulator.getHost()}:${simulator.getMappedPort(4010)}`
})

after(async () => {
  await simulator?.stop()
})

test('cancelling a pending order answers 204, and the simulator received exactly that', async () => {
  const cancel = await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: KEY })
  assert.equal(cancel.status, 204)
  const again = await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: KEY })
  assert.equal(again.status, 409)

  const journal = await fetch(`${origin}/__sim/requests?operation=cancelOrder`, {
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  assert.equal(journal.status, 200)
  const entries = await journal.json()
  assert.deepEqual(
    entries.map(({ method, path, status, orderId }) => ({ method, path, status, orderId })),
    [
      { method: 'DELETE', path: '/v1/store/orders/1', status: 204, orderId: 1 },
      { method: 'DELETE', path: '/v1/store/orders/1', status: 409, orderId: 1 },
    ],
  )
})
