// npm run bench: the simulator against two baselines, measured in one run.
// Prints a markdown table and writes test-results/bench.json and bench.md.
// Servers run pinned to core 0 and the load generator to core 1 when taskset
// exists; wrk drives the load when installed, else autocannon.
//   BENCH_SECONDS (default 5) and BENCH_ROUNDS (default 3) change the length.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CLI = process.env.BENCH_CLI ?? join(ROOT, 'dist/cli.mjs')
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const CONNECTIONS = 10
const KEY = 'petstore-test-key'
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0
const TASKSET = has('taskset') && cpus().length > 1
const WRK = has('wrk')
const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'))

if (!existsSync(CLI)) {
  console.error('Run "npm run build" first: the bench starts the built CLI (dist/cli.mjs).')
  process.exit(1)
}

const pinned = (core, command, args) => (TASKSET ? ['taskset', ['-c', String(core), command, ...args]] : [command, args])
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

function peakRssMiB(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
  } catch {
    return Number.NaN
  }
}

/** Starts a server process and resolves with its port once it prints a line with one. */
async function start(kind, args) {
  const [command, commandArgs] = pinned(0, process.execPath, args)
  const child = spawn(command, commandArgs, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /(?:ready at http:\/\/127\.0\.0\.1:|ready )(\d+)/.exec(out)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`${kind} exited with ${code}`)))
  })
  child.stdout.resume()
  return {
    port,
    pid: child.pid,
    stop: () => new Promise((resolve) => {
      child.once('exit', resolve)
      child.kill('SIGTERM')
    }),
  }
}

const servers = {
  simulator: (scenarioFile) => start('simulator', [CLI, '--port', '0', '--quiet', '--scenario', scenarioFile]),
  raw: (bodyFile) => start('raw', [join(ROOT, 'test/bench/raw-server.mjs'), bodyFile, '0']),
  mswStock: (bodyFile) => start('msw stock', [join(ROOT, 'test/bench/msw-stock-server.mjs'), bodyFile, '0']),
  expressApp: (scenarioFile) => start('simulator express app', [join(ROOT, 'test/bench/express-app-server.mjs'), scenarioFile, '0']),
}

function toMs(text) {
  const match = /([\d.]+)(us|ms|s)/.exec(text)
  if (!match) return Number.NaN
  const value = Number(match[1])
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value
}

/** Drives one URL for `seconds`; returns req/s and p50/p99 latency in ms. */
function load(url, { method = 'GET', seconds = SECONDS } = {}) {
  if (WRK) {
    const script = join(work, `${method}.lua`)
    writeFileSync(script, `wrk.method = "${method}"\nwrk.headers["Authorization"] = "Bearer ${KEY}"\n`)
    const [command, args] = pinned(1, 'wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '-s', script, url])
    const out = execFileSync(command, args, { encoding: 'utf8' })
    return {
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
      p50: toMs(/\s50%\s+(\S+)/.exec(out)?.[1] ?? ''),
      p99: toMs(/\s99%\s+(\S+)/.exec(out)?.[1] ?? ''),
      non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    }
  }
  const autocannon = join(ROOT, 'node_modules/autocannon/autocannon.js')
  const [command, args] = pinned(1, process.execPath, [autocannon, '-j', '-c', String(CONNECTIONS), '-d', String(seconds), '-m', method, '-H', `Authorization=Bearer ${KEY}`, url])
  const out = JSON.parse(execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))
  return { rps: out.requests.average, p50: out.latency.p50, p99: out.latency.p99, non2xx: out.non2xx }
}

function writeScenario(count, statuses = { pending: 1, shipped: 1 }) {
  const file = join(work, `orders-${count}-${Object.keys(statuses).join('-')}.json`)
  writeFileSync(file, JSON.stringify({ name: `bench-${count}`, description: `${count} generated orders`, apiKeys: [KEY], generate: { count, seed: 1, statuses } }))
  return file
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
  const result = load(url, options)
  result.peakRssMiB = peakRssMiB(server.pid)
  await server.stop()
  return result
}

const results = { machine: {}, comparison: {}, growth: [], cancel: {}, coldStartMs: {}, inProcess: {} }
results.machine = { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadGenerator: WRK ? 'wrk' : 'autocannon', pinned: TASKSET, connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS }
console.log(`bench: ${results.machine.cpus} cores (${results.machine.model}), node ${process.version}, ${results.machine.loadGenerator}, pinned: ${TASKSET}`)

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
    }
  }
  results.comparison[count] = { bodyBytes: body.bytes, ...summary }
}
console.log()

// 2. How the list cost grows with the number of orders.
for (const count of [10, 100, 1_000, 10_000, 100_000]) {
  const scenario = writeScenario(count)
  const body = await listBody(scenario)
  const simulator = await measure('simulator', scenario, { seconds: 3 })
  const raw = await measure('raw', body.file, { seconds: 3 })
  results.growth.push({ orders: count, bodyBytes: body.bytes, simulatorRps: simulator.rps, rawRps: raw.rps, simulatorP99: simulator.p99, perRequestMs: 1000 / simulator.rps })
  process.stdout.write('.')
}
console.log()

// 3. Cancel throughput: DELETE of one order (the first is 204, the rest 409).
results.cancel = await measure('simulator', writeScenario(100, { pending: 1 }), { method: 'DELETE', path: '/1' })

// 4. Cold start: spawn to first 200, five runs. Port 0 (a fixed port can be
// held by a client socket from the load runs); the port is read from the
// ready line, then the first GET is timed too.
const coldRuns = []
for (let run = 0; run < 5; run++) {
  const started = performance.now()
  const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error('no ready line within 10 s')), 10_000)
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /ready at http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(Number(match[1]))
      }
    })
  })
  const response = await fetch(`http://127.0.0.1:${port}/v1/store/orders`, { headers: { Authorization: `Bearer ${KEY}` } })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`cold start: first answer was ${response.status}`)
  coldRuns.push(performance.now() - started)
  await new Promise((resolve) => {
    child.once('exit', resolve)
    child.kill('SIGTERM')
  })
}
results.coldStartMs = { median: median(coldRuns), runs: coldRuns.map(Math.round) }

// 5. In-process costs, in a process of their own.
results.inProcess = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'test/bench/in-process.mjs')], { cwd: ROOT, encoding: 'utf8' }))

// Report.
const f = (value, digits = 0) => (Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–')
const lines = []
lines.push(`Machine: ${results.machine.cpus} cores (${results.machine.model}), Node ${process.version}; load from ${results.machine.loadGenerator}, ${CONNECTIONS} connections, ${SECONDS} s per run, median of ${ROUNDS} interleaved rounds${TASKSET ? ', server on core 0 and load on core 1' : ''}.`)
lines.push('')
lines.push('| GET /v1/store/orders | orders | body | req/s | p50 ms | p99 ms | peak RSS MiB | vs msw + http-middleware | vs raw node:http |')
lines.push('|---|---|---|---|---|---|---|---|---|')
for (const [count, row] of Object.entries(results.comparison)) {
  for (const [kind, label] of [
    ['simulator', 'Petstore simulator (CLI)'],
    ['expressApp', 'the simulator as an express app (createSimulatorApp().app, API through msw)'],
    ['mswStock', 'msw + @mswjs/http-middleware, one static handler'],
    ['raw', 'raw node:http, precomputed bytes'],
  ]) {
    const r = row[kind]
    lines.push(`| ${label} | ${f(Number(count))} | ${f(row.bodyBytes / 1024, 1)} KiB | ${f(r.rps)} | ${f(r.p50, 2)} | ${f(r.p99, 2)} | ${f(r.peakRssMiB, 1)} | ${f(r.rps / row.mswStock.rps, 2)} x | ${f(r.rps / row.raw.rps, 2)} x |`)
  }
}
lines.push('')
lines.push('| List cost as orders grow | body | simulator req/s | ms per request | raw node:http req/s | simulator / raw |')
lines.push('|---|---|---|---|---|---|')
for (const row of results.growth) lines.push(`| ${f(row.orders)} orders | ${f(row.bodyBytes / 1024, 1)} KiB | ${f(row.simulatorRps)} | ${f(row.perRequestMs, 3)} | ${f(row.rawRps)} | ${f(row.simulatorRps / row.rawRps, 2)} x |`)
lines.push('')
lines.push('| Other | value |')
lines.push('|---|---|')
lines.push(`| Cancel (DELETE /v1/store/orders/1, 409 after the first) | ${f(results.cancel.rps)} req/s, p99 ${f(results.cancel.p99, 2)} ms |`)
lines.push(`| Cold start, spawn to first 200 (node dist/cli.mjs) | ${f(results.coldStartMs.median)} ms median (${results.coldStartMs.runs.join(', ')}) |`)
for (const [name, ms] of Object.entries(results.inProcess.resetMs)) lines.push(`| In process: sim.reset() after a cancel, ${name} | ${f(ms * 1000, 1)} µs |`)
lines.push(`| In process: one GET through setupServer, simulator / static msw handler | ${f(results.inProcess.request.simulatorMs * 1000, 1)} µs / ${f(results.inProcess.request.staticMswMs * 1000, 1)} µs = ${f(results.inProcess.request.ratio, 2)} x |`)
const markdown = lines.join('\n')
console.log(markdown)

mkdirSync(join(ROOT, 'test-results'), { recursive: true })
writeFileSync(join(ROOT, 'test-results/bench.json'), `${JSON.stringify(results, null, 2)}\n`)
writeFileSync(join(ROOT, 'test-results/bench.md'), `${markdown}\n`)
console.log('\nWritten: test-results/bench.json, test-results/bench.md')
