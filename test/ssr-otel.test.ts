// Issue 58, item 2: a server-rendered app's server instrumented with the real OpenTelemetry packages, exactly as
// docs/ssr.md shows, passes the session its incoming `baggage` names on to the simulator, with no header code of its own.
// The app runs as a child process (`node --import ./telemetry.mjs app.mjs`): in the vitest worker the ESM hook would not
// see vitest's module runner, the global propagator can be set once per process, and the http patch would instrument
// this file's simulator server too.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSimulatorApp } from '../src/server.js'
import { ROOT } from './support/cli-process.js'
import { readBlocks } from './support/doc-blocks.js'
import { type Listening, listen } from './support/serve.js'

const APP_DIR = join(ROOT, 'test/fixtures/otel-app')
const READY = /^app listening at (http:\/\/127\.0\.0\.1:\d+)$/m
// Nothing is exported: spans stay non-recording, and no exporter dials localhost:4318.
const NO_EXPORTERS = { OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' }

interface RunningApp {
  origin: string
  child: ChildProcess
  output(): string
}

/** Starts the instrumented app as docs/ssr.md does, calling the simulator at `simUrl`; fails with its output if it never listens. */
function startApp(simUrl: string): Promise<RunningApp> {
  const child = spawn(process.execPath, ['--import', './telemetry.mjs', 'app.mjs'], {
    cwd: APP_DIR,
    env: { ...process.env, ...NO_EXPORTERS, SIM_URL: simUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not listen within 20 s:\n${output}`)), 20_000)
    const collect = (chunk: Buffer) => {
      output += chunk.toString()
      const ready = READY.exec(output)
      if (ready?.[1] !== undefined) {
        clearTimeout(timer)
        resolve({ origin: ready[1], child, output: () => output })
      }
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the app exited (${String(code ?? signal)}) before listening:\n${output}`))
    })
  })
}

let simulator: Listening
let closeSim: () => void
let app: RunningApp

beforeAll(async () => {
  const { listener, sim } = createSimulatorApp({ scenario: 'pending' })
  closeSim = () => sim.close()
  simulator = await listen(listener)
  app = await startApp(`${simulator.origin}/v1`)
  // Session s1 starts from `shipped`; the default state stays `pending`.
  const reset = await fetch(`${simulator.origin}/__sim/reset`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Sim-Session': 's1' },
    body: JSON.stringify({ scenario: 'shipped' }),
  })
  expect(reset.status).toBe(200)
}, 60_000)

afterAll(async () => {
  app?.child.kill('SIGKILL')
  await simulator?.close()
  closeSim?.()
})

/** The orders an answer holds, by pet and completion: the shipped scenario's pets are 201-203, the pending one's 101-103. */
const ordersOf = async (answer: Response) => {
  expect(answer.status, app.output()).toBe(200)
  return ((await answer.json()) as { petId: number; complete: boolean }[]).map(({ petId, complete }) => ({ petId, complete }))
}
const SHIPPED = [201, 202, 203].map((petId) => ({ petId, complete: true }))
const PENDING = [101, 102, 103].map((petId) => ({ petId, complete: false }))

const journalOf = async (session: string | null) =>
  (await (await fetch(`${simulator.origin}/__sim/requests`, { headers: session === null ? {} : { 'X-Sim-Session': session } })).json()) as {
    operation?: string
    status: number
    sessionHeader?: string
  }[]

describe('an app instrumented with OpenTelemetry (http + undici, W3C propagators) carries the session on', () => {
  test("a page request with `baggage: sim-session=s1` gets s1's orders, and s1's journal says baggage named it", async () => {
    const answer = await fetch(`${app.origin}/`, { headers: { baggage: 'a=1;p, sim-session=s1;q=2' } })
    expect(await ordersOf(answer)).toEqual(SHIPPED)
    expect((await journalOf('s1')).map(({ operation, status, sessionHeader }) => ({ operation, status, sessionHeader }))).toEqual([
      { operation: 'listOrders', status: 200, sessionHeader: 'baggage' },
    ])
    expect(await journalOf(null)).toEqual([])
  })

  test('a request without baggage lands in the default state', async () => {
    expect(await ordersOf(await fetch(`${app.origin}/`))).toEqual(PENDING)
    const root = await journalOf(null)
    expect(root.map(({ operation, status }) => ({ operation, status }))).toEqual([{ operation: 'listOrders', status: 200 }])
    expect(root[0]).not.toHaveProperty('sessionHeader')
  })
})

test('docs/ssr.md shows exactly the telemetry.mjs this test runs', () => {
  const shown = readBlocks(ROOT, 'docs/ssr.md').filter((block) => block.code.startsWith('// telemetry.mjs'))
  expect(shown.map((block) => block.code)).toEqual([readFileSync(join(APP_DIR, 'telemetry.mjs'), 'utf8')])
})
