// An interleaved A/B of two builds of the CLI: the list (100 orders unless BENCH_ORDERS) under
// load (req/s, p50, p99, peak RSS), a CORS preflight of a cancel on the same server, then cold
// start, A and B taking turns so that drift on the machine hits both alike.
// Usage: BENCH_A=/path/to/before/dist/cli.mjs [BENCH_B=dist/cli.mjs] node test/bench/ab.mjs
//   BENCH_A_ARGS and BENCH_B_ARGS add flags to one side (A/B of one build with and without --proxy);
//   BENCH_A_ROUTES and BENCH_B_ROUTES load that many routes (long paths) into one side's scenario.
//   BENCH_ROUNDS (default 3) and BENCH_SECONDS (default 5) change the length; BENCH_ORDERS (default 100) the list's size.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { coldStart, cpuMs, load, median, PREFLIGHT, peakRssMiB, ROOT, ROUNDS, SECONDS, start, WRK, writeScenario } from './harness.mjs'

const builds = { A: process.env.BENCH_A, B: process.env.BENCH_B ?? join(ROOT, 'dist/cli.mjs') }
for (const [name, cli] of Object.entries(builds)) {
  if (cli === undefined || !existsSync(cli)) {
    console.error(`BENCH_${name} must name a built dist/cli.mjs (got ${cli}).`)
    process.exit(1)
  }
}

const orders = Number(process.env.BENCH_ORDERS ?? 100)
const extra = {
  A: (process.env.BENCH_A_ARGS ?? '').split(' ').filter(Boolean),
  B: (process.env.BENCH_B_ARGS ?? '').split(' ').filter(Boolean),
}
const scenario = {
  A: writeScenario(orders, undefined, Number(process.env.BENCH_A_ROUTES ?? 0)),
  B: writeScenario(orders, undefined, Number(process.env.BENCH_B_ROUTES ?? 0)),
}
const routesOf = (name) => (process.env[`BENCH_${name}_ROUTES`] ? `, ${process.env[`BENCH_${name}_ROUTES`]} routes` : '')
const runs = { A: [], B: [] }
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
    const server = await start(name, [builds[name], '--port', '0', '--quiet', '--scenario', scenario[name], ...extra[name]])
    const url = `http://127.0.0.1:${server.port}/v1/store/orders`
    load(url, { seconds: 1 })
    const cpuBefore = cpuMs(server.pid)
    const result = load(url)
    // The server's own CPU time per request: what other work on the machine disturbs least.
    const cpuUsPerRequest = ((cpuMs(server.pid) - cpuBefore) * 1000) / result.requests
    const peak = peakRssMiB(server.pid)
    const preflight = load(`${url}/1`, PREFLIGHT)
    runs[name].push({ ...result, cpuUsPerRequest, peakRssMiB: peak, preflightRps: preflight.rps })
    await server.stop()
    process.stdout.write('.')
  }
}
const cold = { A: [], B: [] }
for (let round = 0; round < 2; round++) {
  for (const name of ['A', 'B']) cold[name].push(...(await coldStart(builds[name])).runs)
}
console.log()
console.log(
  `${ROUNDS} interleaved rounds of ${SECONDS} s, ${WRK ? 'wrk' : 'autocannon'}, 10 connections, GET /v1/store/orders at ${orders} orders; cold start: 10 runs each, spawn to first 200.`,
)
console.log(
  '| build | req/s (median; each round) | server CPU µs per request (median) | p50 ms | p99 ms | peak RSS MiB (max; each round) | preflight req/s (median; / list) | cold start ms (median) |',
)
console.log('|---|---|---|---|---|---|---|---|')
for (const name of ['A', 'B']) {
  const r = runs[name]
  console.log(
    `| ${name}: ${builds[name]}${extra[name].length === 0 ? '' : ` ${extra[name].join(' ')}`}${routesOf(name)} | ${Math.round(median(r.map((x) => x.rps)))} (${r.map((x) => Math.round(x.rps)).join(', ')}) | ${median(r.map((x) => x.cpuUsPerRequest)).toFixed(1)} | ${median(r.map((x) => x.p50)).toFixed(2)} | ${median(r.map((x) => x.p99)).toFixed(2)} | ${Math.max(...r.map((x) => x.peakRssMiB)).toFixed(1)} (${r.map((x) => x.peakRssMiB.toFixed(0)).join(', ')}) | ${Math.round(median(r.map((x) => x.preflightRps)))} (${(median(r.map((x) => x.preflightRps)) / median(r.map((x) => x.rps))).toFixed(2)} x) | ${Math.round(median(cold[name]))} |`,
  )
}
