// The performance band (issue 44's goals) of two builds in one interleaved run: each build's list of 100 and of
// 10,000, its p99, peak RSS, cold start and CORS preflight, against a raw node:http server sending the same
// bytes, A, B and raw taking turns so that drift on the machine hits all three alike.
// Usage: BENCH_A=/path/to/before/dist/cli.mjs [BENCH_B=dist/cli.mjs] node test/bench/band.mjs
//   BENCH_ROUNDS (default 3) and BENCH_SECONDS (default 5) change the length.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { coldStart, KEY, load, median, PREFLIGHT, peakRssMiB, ROOT, ROUNDS, SECONDS, start, WRK, writeScenario } from './harness.mjs'

const builds = { A: process.env.BENCH_A, B: process.env.BENCH_B ?? join(ROOT, 'dist/cli.mjs') }
for (const [name, cli] of Object.entries(builds)) {
  if (cli === undefined || !existsSync(cli)) {
    console.error(`BENCH_${name} must name a built dist/cli.mjs (got ${cli}).`)
    process.exit(1)
  }
}

const serverOf = {
  A: (scenario) => start('A', [builds.A, '--port', '0', '--quiet', '--scenario', scenario]),
  B: (scenario) => start('B', [builds.B, '--port', '0', '--quiet', '--scenario', scenario]),
  raw: (_, body) => start('raw', [join(ROOT, 'test/bench/raw-server.mjs'), body, '0']),
}

/** B's list bytes, so that the raw server sends what the simulator sends. */
async function bodyFile(scenario) {
  const server = await serverOf.B(scenario)
  const response = await fetch(`http://127.0.0.1:${server.port}/v1/store/orders`, { headers: { Authorization: `Bearer ${KEY}` } })
  const file = `${scenario}.body`
  writeFileSync(file, Buffer.from(await response.arrayBuffer()))
  await server.stop()
  return file
}

const figures = {}
for (const orders of [100, 10_000]) {
  const scenario = writeScenario(orders)
  const body = await bodyFile(scenario)
  const runs = { A: [], B: [], raw: [] }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['A', 'B', 'raw'] : ['raw', 'B', 'A']
    for (const name of order) {
      const server = await serverOf[name](scenario, body)
      const url = `http://127.0.0.1:${server.port}/v1/store/orders`
      load(url, { seconds: 1 })
      const result = load(url)
      // The peak of the list's load, as issue 44's goal reads it, before the preflight's.
      const rss = peakRssMiB(server.pid)
      const preflight = name === 'raw' || orders !== 100 ? undefined : load(`${url}/1`, PREFLIGHT).rps
      runs[name].push({ rps: result.rps, p99: result.p99, rss, preflight })
      await server.stop()
      process.stdout.write('.')
    }
  }
  figures[orders] = Object.fromEntries(
    Object.entries(runs).map(([name, r]) => [
      name,
      {
        rps: median(r.map((x) => x.rps)),
        p99: median(r.map((x) => x.p99)),
        rss: Math.max(...r.map((x) => x.rss)),
        preflight: orders === 100 && name !== 'raw' ? median(r.map((x) => x.preflight)) : undefined,
      },
    ]),
  )
  figures[orders].body = body
}
const cold = { A: [], B: [], raw: [] }
const rawServer = [join(ROOT, 'test/bench/raw-server.mjs'), figures[100].body, '0']
for (let round = 0; round < 5; round++) {
  for (const name of ['A', 'B']) cold[name].push(...(await coldStart(builds[name], 1)).runs)
  cold.raw.push(...(await coldStart(rawServer, 1)).runs)
}
console.log()
console.log(
  `${ROUNDS} interleaved rounds of ${SECONDS} s, ${WRK ? 'wrk' : 'autocannon'}, 10 connections; A = ${builds.A}, B = ${builds.B}; raw = node:http sending B's list bytes; cold start: 5 runs each, spawn to first 200.`,
)
const ratio = (value, base) => `${(value / base).toFixed(2)} x`
const row = (goal, a, b) => console.log(`| ${goal} | ${a} | ${b} |`)
console.log('| goal (against raw node:http) | A | B |')
console.log('|---|---|---|')
const [hundred, tenThousand] = [figures[100], figures[10_000]]
row('list of 100: >= 0.8 x req/s', ratio(hundred.A.rps, hundred.raw.rps), ratio(hundred.B.rps, hundred.raw.rps))
row('p99 <= 1.3 x', ratio(hundred.A.p99, hundred.raw.p99), ratio(hundred.B.p99, hundred.raw.p99))
row('peak RSS <= 1.4 x at 100 orders', ratio(hundred.A.rss, hundred.raw.rss), ratio(hundred.B.rss, hundred.raw.rss))
row('peak RSS <= 1.4 x at 10,000 orders', ratio(tenThousand.A.rss, tenThousand.raw.rss), ratio(tenThousand.B.rss, tenThousand.raw.rss))
row('cold start <= 1.6 x', ratio(median(cold.A), median(cold.raw)), ratio(median(cold.B), median(cold.raw)))
row('list of 10,000: >= 0.9 x', ratio(tenThousand.A.rps, tenThousand.raw.rps), ratio(tenThousand.B.rps, tenThousand.raw.rps))
row('preflight >= 0.5 x the list of 100', ratio(hundred.A.preflight, hundred.A.rps), ratio(hundred.B.preflight, hundred.B.rps))
console.log()
console.log('| | list of 100 req/s | p99 ms | peak RSS MiB | list of 10,000 req/s | peak RSS MiB | preflight req/s | cold start ms |')
console.log('|---|---|---|---|---|---|---|---|')
for (const name of ['A', 'B', 'raw']) {
  const [h, t] = [hundred[name], tenThousand[name]]
  console.log(
    `| ${name} | ${Math.round(h.rps)} | ${h.p99.toFixed(2)} | ${h.rss.toFixed(1)} | ${Math.round(t.rps)} | ${t.rss.toFixed(1)} | ${h.preflight === undefined ? '' : Math.round(h.preflight)} | ${Math.round(median(cold[name]))} |`,
  )
}
