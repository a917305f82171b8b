// npm run bench:in-process: one table of in-process costs on Node 24, with msw 2 and msw 3: µs per request
// for GET list (100 orders) and DELETE + reset through (a) sim.fetch, (b) setupServer with the simulator's
// handlers (setupSimulatorServer), (c) setupServer with a bare handler returning a fixed Response, (d) a plain
// function returning one; and µs per reset of each built-in scenario (median of 1,000 after warm-up).
// Rounds interleave msw 2 and msw 3, each a fresh process (test/bench/in-process-worker.mjs); medians of rounds.
// Needs `npm run build`. BENCH_ROUNDS (default 5) rounds; BENCH_NODE (default 24). Run it on a quiet machine.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { msw3 } from '../package/msw3-overlay.mjs'
import { envWithNode } from '../package/registry-node.mjs'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const NODE = process.env.BENCH_NODE ?? '24'
const MSWS = { 'msw 2': join(ROOT, 'node_modules/msw'), 'msw 3': msw3() }
if (!existsSync(join(ROOT, 'dist/src/index.js'))) throw new Error('dist/ is missing: run `npm run build` first.')

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const env = envWithNode(NODE)
const load = loadavg()
const rounds = Object.fromEntries(Object.keys(MSWS).map((name) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, folder] of Object.entries(MSWS)) {
    const output = execFileSync('node', [join(ROOT, 'test/bench/in-process-worker.mjs'), folder], { cwd: ROOT, env, encoding: 'utf8' })
    rounds[name].push(JSON.parse(output.trim().split('\n').pop()))
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS}\n`)
}

const f = (value) => value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 1 : 0 })
const ratio = (value) => `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })}x`
const of = (name, key) => median(rounds[name].map((result) => result[key]))
const lines = []
const [first] = rounds['msw 2']
lines.push(
  `Node ${first.node}; ${Object.entries(rounds)
    .map(([name, [result]]) => `${name} = ${result.msw}`)
    .join(
      ', ',
    )}; median of ${ROUNDS} interleaved rounds, each a fresh process; load average at the start ${load.map((each) => each.toFixed(2)).join(', ')}.`,
)
lines.push('')
lines.push(
  '| µs per request | msw | (a) sim.fetch | (b) setupSimulatorServer | (c) bare msw handler | (d) plain function | (b) / (a) | (a) / (d) |',
)
lines.push('|---|---|---|---|---|---|---|---|')
for (const [operation, label] of [
  ['list', 'GET list (100 orders)'],
  ['delete', 'DELETE + reset'],
]) {
  for (const name of Object.keys(MSWS)) {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((kind) => of(name, `${kind} ${operation}`))
    lines.push(`| ${label} | ${name} | ${f(a)} | ${f(b)} | ${f(c)} | ${f(d)} | ${ratio(b / a)} | ${ratio(a / d)} |`)
  }
}
lines.push('')
const scenarios = Object.keys(first.reset)
lines.push(`| µs per \`await sim.reset(name)\` (median of 1,000) | ${scenarios.join(' | ')} |`)
lines.push(`|---|${scenarios.map(() => '---').join('|')}|`)
for (const name of Object.keys(MSWS)) {
  lines.push(
    `| with ${name} loaded | ${scenarios.map((scenario) => f(median(rounds[name].map((result) => result.reset[scenario])))).join(' | ')} |`,
  )
}
console.log(lines.join('\n'))
