import { test } from 'petstore-orders-simulator/playwright'

// Each of these tests must fail in its sim fixture; test/playwright-fixture.test.ts reads why from the report.
test.describe('bad input fails the test that has it', () => {
  test.fail()

  test.describe('an unknown scenario, server mode', () => {
    test.use({ scenario: 'no-such-scenario' })
    test('unknown scenario (server)', async ({ sim }) => {
      await sim.orders()
    })
  })

  test.describe('an unknown scenario, route mode', () => {
    test.use({ scenario: 'no-such-scenario', simulatorMode: 'route' })
    test('unknown scenario (route)', async ({ sim }) => {
      await sim.orders()
    })
  })

  test.describe('a pact consumer that cannot name a file', () => {
    test.use({ pact: { consumer: '../orders-web' } })
    test('bad pact consumer', async ({ sim }) => {
      await sim.orders()
    })
  })

  test.describe('no simulator at simulatorUrl', () => {
    test.use({ simulatorUrl: 'http://127.0.0.1:4021/v1' })
    test('unreachable simulator', async ({ sim }) => {
      await sim.orders()
    })
  })
})
