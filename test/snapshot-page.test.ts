import { expect, onTestFinished, test } from 'vitest'
import { createSimulatorCore } from '../src/core/simulator/simulator.js'
import { createSimulator } from '../src/index.js'
import { requiredGeneration } from '../src/transports/msw/required-generation.js'

// A page's build passes no `snapshots` (core/platform.ts), so its bundle carries none of the snapshot code.
const pagePlatform = () => ({ generation: requiredGeneration() })

test('in a page, sim.snapshot() says it works in Node.js only, and what to use there instead', () => {
  const sim = createSimulatorCore({ scenario: 'pending' }, pagePlatform())
  onTestFinished(() => sim.close())
  expect(() => sim.snapshot()).toThrow(
    new TypeError(
      'Failed to take a snapshot of the simulator: snapshots work in Node.js only (a test runner, a server); in a page, persist keeps the state across reloads (docs/browser.md).',
    ),
  )
})

test('in a page, the restore option is refused in one line, and nothing is left running', () => {
  const node = createSimulator({ scenario: 'pending' })
  onTestFinished(() => node.close())
  expect(() => createSimulatorCore({ scenario: 'pending', restore: node.snapshot() }, pagePlatform())).toThrow(
    /^Failed to create the simulator: restore: snapshots work in Node\.js only/,
  )
})
