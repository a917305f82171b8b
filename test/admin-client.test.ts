import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { AdminError, adminClient } from '../src/server.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

// adminClient (issue 33, item 2): a typed method per operation of the admin table, over HTTP.

const serve = useAppServers()

test('calls each operation by its operationId with its path parameters, query and body; int64 ids stay exact', async () => {
  const { origin } = await serve({ scenario: 'pending' })
  const admin = adminClient(`${origin}/v1/store/orders`, { session: 'qa-client' })
  const added = await admin.addOrder({ body: { id: 9007199254740993n, petId: 7 } })
  expect(added).toEqual({ id: 9007199254740993n, petId: 7, status: 'pending' })
  expect(await admin.getAdminOrder({ orderId: 9007199254740993n })).toEqual(added)
  await admin.updateOrder({ orderId: 1, body: { status: 'shipped' } })
  expect((await admin.listRequests({ query: { operation: 'cancelOrder' } })).length).toBe(0)
  expect((await admin.getState()).orders.map((order) => order.status)).toEqual(['shipped', 'pending', 'pending', 'pending'])
  // The default state is untouched: the calls carried the session.
  expect((await adminClient(origin).getState()).orders.map((order) => order.status)).toEqual(['pending', 'pending', 'pending'])
  expect(await admin.removeOrder({ orderId: 1 })).toBeUndefined()
  expect(await admin.health()).toEqual({ status: 'ok', version: expect.any(String) })
  expect((await admin.listAdminEndpoints()).endpoints).toContain('GET /__sim/health (Is the simulator up)')
})

test('a refusal is an AdminError with the Error body; a wrong token, a 401', async () => {
  const { origin } = await serve({ adminToken: 'sesame' })
  const refused = await adminClient(origin, { token: 'sesame' })
    .reset({ body: { scenario: 'nope' } })
    .catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(AdminError)
  expect(refused).toMatchObject({ status: 400, code: 'unknown_scenario', message: expect.stringContaining('"nope"') })
  const anonymous = await adminClient(origin)
    .getState()
    .catch((error: unknown) => error)
  expect(anonymous).toMatchObject({ name: 'AdminError', status: 401, code: 'unauthorized' })
})

test('the scenario calls: saved into the folder, read back as a file, exported without saving', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-admin-client-'))
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
  const { origin } = await serve({ scenario: 'pending', scenariosDir: folder })
  const admin = adminClient(origin)
  await admin.updateOrder({ orderId: 2, body: { status: 'cancelled' } })
  expect(await admin.saveScenario({ body: { name: 'qa-two-cancelled' } })).toMatchObject({
    name: 'qa-two-cancelled',
    source: 'folder',
    file: 'qa-two-cancelled.json',
  })
  expect(readdirSync(folder)).toEqual(['qa-two-cancelled.json'])
  const file = await admin.getScenarioFile({ name: 'qa-two-cancelled' })
  expect(file.orders?.[1]).toMatchObject({ id: 2, status: 'cancelled' })
  expect(await admin.exportScenario({ query: { name: 'not-saved' } })).toMatchObject({ name: 'not-saved', orders: file.orders })
  expect(readdirSync(folder)).toEqual(['qa-two-cancelled.json'])
  const again = await admin.saveScenario({ body: { name: 'qa-two-cancelled' } }).catch((error: unknown) => error)
  expect(again).toMatchObject({ status: 409, code: 'scenario_exists' })
  expect((await admin.listScenarios()).find((scenario) => scenario.name === 'qa-two-cancelled')).toMatchObject({ source: 'folder' })
})
