// npm run bench: the simulator against two baselines, measured in one run.
// Prints a markdown table and writes test-results/bench.json and bench.md.
// Servers run pinned to core 0 and the load generator to core 1 when taskset
// exists; wrk drives the load when installed, else autocannon.
//   BENCH_SECONDS (default 5) and BENCH_ROUNDS (default 3) change the length.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { envWithNode } from '../package/registry-node.mjs'
import {
  coldStart,
  CONNECTIONS,
  cpuMs,
  KEY,
  load,
  median,
  peakRssMiB,
  ROOT,
  PREFLIGHT,
  ROUNDS,
  SECONDS,
  start,
  TASKSET,
  WRK,
  writeScenario,
} from './harness.mjs'
import { buildMsw3Overlay, msw3Overlay } from '../package/msw3-overlay.mjs'
import { goalLines } from './goals.mjs'

const CLI = process.env.BENCH_CLI ?? join(ROOT, 'dist/cli.mjs')
if (!existsSync(CLI)) {
  console.error('Run "npm run build" first: the bench starts the built CLI (dist/cli.mjs).')
  process.exit(1)
}

const servers = {
  simulator: (scenarioFile) => start('simulator', [CLI, '--port', '0', '--quiet', '--scenario', scenarioFile]),
  raw: (bodyFile) => start('raw', [join(ROOT, 'test/bench/raw-server.mjs'), bodyFile, '0']),
  mswStock: (bodyFile) => start('msw stock', [join(ROOT, 'test/bench/msw-stock-server.mjs'), bodyFile, '0']),
  expressApp: (scenarioFile) => start('simulator express app', [join(ROOT, 'test/bench/express-app-server.mjs'), scenarioFile, '0']),
}

/** The simulator's own list bytes for a scenario, so every baseline sends the same body. */
async function listBody(scenarioFile) {
  const server = await servers.simulator(scenarioFile)
  const response = await fetch(`http://127.0.0.1:${server.port}/v1/store/orders`, { headers: { Authorization: `Bearer ${KEY}` } })
  const body = Buffer.from(await response.arrayBuffer())
  await server.stop()
  const file = `${scenarioFile}.body`
  writeFileSync(file, body)
  return { file, bytes: body.length }
}

async function measure(kind, input, options) {
  const server = await servers[kind](input)
  const url = `http://127.0.0.1:${server.port}/v1/store/orders${options?.path ?? ''}`
  load(url, { ...options, seconds: 1 }) // warm up
  const cpuBefore = cpuMs(server.pid)
  const result = load(url, options)
  result.cpuUsPerRequest = ((cpuMs(server.pid) - cpuBefore) * 1000) / result.requests
  result.peakRssMiB = peakRssMiB(server.pid)
  await server.stop()
  return result
}

const results = { machine: {}, comparison: {}, growth: [], cancel: {}, preflight: {}, coldStartMs: {}, inProcess: {} }
results.machine = {
  cpus: cpus().length,
  model: cpus()[0]?.model,
  node: process.version,
  loadGenerator: WRK ? 'wrk' : 'autocannon',
  pinned: TASKSET,
  connections: CONNECTIONS,
  seconds: SECONDS,
  rounds: ROUNDS,
}
console.log(
  `bench: ${results.machine.cpus} cores (${results.machine.model}), node ${process.version}, ${results.machine.loadGenerator}, pinned: ${TASKSET}`,
)

// 1. The simulator against both baselines, interleaved over several rounds.
for (const count of [100, 10_000]) {
  const scenario = writeScenario(count)
  const body = await listBody(scenario)
  const runs = { simulator: [], expressApp: [], raw: [], mswStock: [] }
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of Object.keys(runs)) {
      runs[kind].push(await measure(kind, kind === 'simulator' || kind === 'expressApp' ? scenario : body.file))
      process.stdout.write('.')
    }
  }
  const summary = {}
  for (const [kind, values] of Object.entries(runs)) {
    summary[kind] = {
      rps: median(values.map((value) => value.rps)),
      p50: median(values.map((value) => value.p50)),
      p99: median(values.map((value) => value.p99)),
      peakRssMiB: Math.max(...values.map((value) => value.peakRssMiB)),
      non2xx: values.reduce((sum, value) => sum + value.non2xx, 0),
      cpuUsPerRequest: median(values.map((value) => value.cpuUsPerRequest)),
    }
  }
  results.comparison[count] = { bodyBytes: body.bytes, bodyFile: body.file, ...summary }
}
console.log()

// 2. How the list cost grows with the number of orders.
for (const count of [10, 100, 1_000, 10_000, 100_000]) {
  const scenario = writeScenario(count)
  const body = await listBody(scenario)
  const simulator = await measure('simulator', scenario, { seconds: 3 })
  const raw = await measure('raw', body.file, { seconds: 3 })
  results.growth.push({
    orders: count,
    bodyBytes: body.bytes,
    simulatorRps: simulator.rps,
    rawRps: raw.rps,
    simulatorP99: simulator.p99,
    perRequestMs: 1000 / simulator.rps,
  })
  process.stdout.write('.')
}
console.log()

// 3. Cancel throughput: DELETE of one order (the first is 204, the rest 409).
results.cancel = await measure('simulator', writeScenario(100, { pending: 1 }), { method: 'DELETE', path: '/1' })

// 3b. A CORS preflight of a cancel, as a page on another origin sends before it: OPTIONS /v1/store/orders/1.
results.preflight = await measure('simulator', writeScenario(100), { ...PREFLIGHT, path: '/1' })

// 4. Cold start: spawn to first 200, the CLI (default scenario) and the raw server (the 100-order body) taking turns.
{
  const raw = [join(ROOT, 'test/bench/raw-server.mjs'), results.comparison[100].bodyFile, '0']
  const runs = { simulator: [], raw: [] }
  for (let round = 0; round < 5; round++) {
    runs.simulator.push(...(await coldStart(CLI, 1)).runs)
    runs.raw.push(...(await coldStart(raw, 1)).runs)
  }
  for (const [kind, values] of Object.entries(runs)) results.coldStartMs[kind] = { median: median(values), runs: values }
}

// 5. In-process costs, in a process of their own: msw 2 on this Node, and msw 3
// from its overlay on Node 24 (msw 3 needs 22.12+).
results.inProcess.msw2 = JSON.parse(
  execFileSync(process.execPath, [join(ROOT, 'test/bench/in-process.mjs')], { cwd: ROOT, encoding: 'utf8' }),
)
{
  const env = envWithNode(process.env.BENCH_MSW3_NODE ?? '24', [join(ROOT, 'node_modules/.bin')])
  const overlay = msw3Overlay()
  buildMsw3Overlay(env)
  results.inProcess.msw3 = JSON.parse(
    execFileSync('node', [join(overlay, 'test/bench/in-process.mjs')], { cwd: overlay, env, encoding: 'utf8' }),
  )
}

// Report.
const f = (value, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–'
const lines = []
lines.push(
  `Machine: ${results.machine.cpus} cores (${results.machine.model}), Node ${process.version}; load from ${results.machine.loadGenerator}, ${CONNECTIONS} connections, ${SECONDS} s per run, median of ${ROUNDS} interleaved rounds${TASKSET ? ', server on core 0 and load on core 1' : ''}.`,
)
lines.push('')
lines.push(
  '| GET /v1/store/orders | orders | body | req/s | p50 ms | p99 ms | peak RSS MiB | vs msw + http-middleware | vs raw node:http |',
)
lines.push('|---|---|---|---|---|---|---|---|---|')
for (const [count, row] of Object.entries(results.comparison)) {
  for (const [kind, label] of [
    ['simulator', 'Petstore simulator (CLI)'],
    ['expressApp', 'the simulator as an express app (createSimulatorApp().app)'],
    ['mswStock', 'msw + @mswjs/http-middleware, one static handler'],
    ['raw', 'raw node:http, precomputed bytes'],
  ]) {
    const r = row[kind]
    lines.push(
      `| ${label} | ${f(Number(count))} | ${f(row.bodyBytes / 1024, 1)} KiB | ${f(r.rps)} | ${f(r.p50, 2)} | ${f(r.p99, 2)} | ${f(r.peakRssMiB, 1)} | ${f(r.rps / row.mswStock.rps, 2)} x | ${f(r.rps / row.raw.rps, 2)} x |`,
    )
  }
}
lines.push('')
lines.push('| List cost as orders grow | body | simulator req/s | ms per request | raw node:http req/s | simulator / raw |')
lines.push('|---|---|---|---|---|---|')
for (const row of results.growth)
  lines.push(
    `| ${f(row.orders)} orders | ${f(row.bodyBytes / 1024, 1)} KiB | ${f(row.simulatorRps)} | ${f(row.perRequestMs, 3)} | ${f(row.rawRps)} | ${f(row.simulatorRps / row.rawRps, 2)} x |`,
  )
lines.push('')
lines.push('| Other | value |')
lines.push('|---|---|')
lines.push(
  `| Cancel (DELETE /v1/store/orders/1, 409 after the first) | ${f(results.cancel.rps)} req/s, p99 ${f(results.cancel.p99, 2)} ms |`,
)
lines.push(
  `| CORS preflight (OPTIONS /v1/store/orders/1, Origin, Access-Control-Request-Headers: authorization) | ${f(results.preflight.rps)} req/s, p99 ${f(results.preflight.p99, 2)} ms, ${f(results.preflight.rps / results.comparison[100].simulator.rps, 2)} x the list of 100 |`,
)
for (const [kind, label] of [
  ['simulator', 'node dist/cli.mjs'],
  ['raw', 'raw node:http'],
])
  lines.push(
    `| Cold start, spawn to first 200 (${label}) | ${f(results.coldStartMs[kind].median)} ms median (${results.coldStartMs[kind].runs.join(', ')}) |`,
  )
lines.push('')
lines.push(...goalLines(results))
const { msw2, msw3 } = results.inProcess
lines.push('')
lines.push(`| In process (one simulator, no server) | msw ${msw2.msw}, Node ${msw2.node} | msw ${msw3.msw}, Node ${msw3.node} |`)
lines.push('|---|---|---|')
for (const name of Object.keys(msw2.resetMs))
  lines.push(
    `| await sim.reset() after a cancel, ${name} | ${f(msw2.resetMs[name] * 1000, 1)} µs | ${f(msw3.resetMs[name] * 1000, 1)} µs |`,
  )
lines.push(
  `| one GET through setupServer: simulator | ${f(msw2.request.simulatorMs * 1000, 1)} µs | ${f(msw3.request.simulatorMs * 1000, 1)} µs |`,
)
lines.push(
  `| one GET through setupServer: a static msw handler, same JSON | ${f(msw2.request.staticMswMs * 1000, 1)} µs | ${f(msw3.request.staticMswMs * 1000, 1)} µs |`,
)
lines.push(`| simulator / static handler | ${f(msw2.request.ratio, 2)} x | ${f(msw3.request.ratio, 2)} x |`)
const markdown = lines.join('\n')
console.log(markdown)

mkdirSync(join(ROOT, 'test-results'), { recursive: true })
writeFileSync(join(ROOT, 'test-results/bench.json'), `${JSON.stringify(results, null, 2)}\n`)
writeFileSync(join(ROOT, 'test-results/bench.md'), `${markdown}\n`)
console.log('\nWritten: test-results/bench.json, test-results/bench.md')
