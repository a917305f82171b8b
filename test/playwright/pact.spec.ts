import { expect, test } from 'petstore-orders-simulator/playwright'

// Where the run's pact goes (the runner's working directory is the repository): test/playwright-fixture.test.ts reads it.
const PACT_DIR = 'test-results/playwright-fixture-pacts'
const APP = 'http://localhost:4020/__sim/scenarios'

for (const mode of ['server', 'route'] as const) {
  test.describe(`a pact of the run (${mode} mode)`, () => {
    test.use({
      scenario: mode === 'server' ? 'pending' : 'shipped',
      simulatorMode: mode,
      pact: { consumer: 'fixture-web', dir: PACT_DIR },
      ...(mode === 'route' ? { simulatorUrl: 'http://127.0.0.1:4021/v1' } : {}),
    })

    test(`each passing test adds its session's interactions (${mode})`, async ({ page, sim }) => {
      await page.goto(APP)
      await page.evaluate(async (base) => {
        const auth = { Authorization: 'Bearer petstore-test-key' }
        await fetch(`${base}/store/orders/1`, { method: 'DELETE', headers: auth })
        await fetch(`${base}/store/orders`, { headers: auth })
      }, sim.url)
      const pact = await sim.pact({ consumer: 'fixture-web' })
      expect(pact.interactions).toHaveLength(2)
    })
  })
}
