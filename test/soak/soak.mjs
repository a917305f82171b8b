// Soak: 200,000 mixed requests over HTTP against the standalone simulator
// (the built CLI, as users run it), with periodic resets through the admin
// API. Prints requests served, unexpected answers (must be 0) and the
// server's resident memory at the start, middle and end.
//
//   npm run build && npm run soak            (SOAK_REQUESTS, SOAK_CONCURRENCY to change the load)
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const TOTAL = Number(process.env.SOAK_REQUESTS ?? 200_000)
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 16)
const RESET_EVERY = 5_000
const KEY = 'petstore-test-key'
const cli = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url))

const server = spawn(process.execPath, [cli, '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] })
const stopTimer = setTimeout(() => {
  console.error('soak: gave up after 10 minutes')
  server.kill('SIGKILL')
  process.exit(1)
}, 10 * 60_000)
const url = await new Promise((resolve, reject) => {
  let out = ''
  server.stdout.on('data', (chunk) => {
    out += chunk
    const match = /ready at (\S+)/.exec(out)
    if (match) resolve(match[1])
  })
  server.once('exit', (code) => reject(new Error(`the simulator exited with ${code} before it was ready`)))
})
const origin = new URL(url).origin

function rssMiB() {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

const SCENARIOS = ['default', 'pending', 'shipped', 'missing']
/** Each request kind with the statuses the spec allows for it. */
const kinds = [
  { weight: 50, allowed: [200], make: () => [`${url}/store/orders`, { headers: { Authorization: `Bearer ${KEY}` } }] },
  { weight: 25, allowed: [204, 404, 409], make: (n) => [`${url}/store/orders/${(n % 30) + 1}`, { method: 'DELETE', headers: { Authorization: `Bearer ${KEY}` } }] },
  { weight: 5, allowed: [400], make: () => [`${url}/store/orders/not-a-number`, { method: 'DELETE', headers: { Authorization: `Bearer ${KEY}` } }] },
  { weight: 10, allowed: [401], make: () => [`${url}/store/orders`, { headers: { Authorization: 'Bearer wrong' } }] },
  { weight: 5, allowed: [200, 404], make: (n) => [`${url}/pets/${(n % 5) + 1}`, { headers: { Authorization: `Bearer ${KEY}` } }] },
  { weight: 5, allowed: [404], make: () => [`${origin}/nope`, {}] },
]
const wheel = kinds.flatMap((kind) => Array(kind.weight).fill(kind))

let issued = 0
let served = 0
let unexpected = 0
let resets = 0
const samples = []
const examples = new Map()
const started = performance.now()
samples.push(['start', rssMiB()])

async function worker() {
  for (;;) {
    const n = issued++
    if (n >= TOTAL) return
    if (n > 0 && n % RESET_EVERY === 0) {
      const response = await fetch(`${origin}/__sim/reset`, { method: 'POST', body: JSON.stringify({ scenario: SCENARIOS[resets++ % SCENARIOS.length] }) })
      await response.arrayBuffer()
      if (response.status !== 200) unexpected++
    }
    if (n === Math.floor(TOTAL / 2)) samples.push(['middle', rssMiB()])
    const kind = wheel[n % wheel.length]
    const [target, init] = kind.make(n)
    try {
      const response = await fetch(target, init)
      const body = await response.text()
      served++
      const jsonOk = response.status === 204 ? body === '' : /^application\/json/.test(response.headers.get('content-type') ?? '')
      if (!kind.allowed.includes(response.status) || !jsonOk) {
        unexpected++
        examples.set(`${init.method ?? 'GET'} ${target} -> ${response.status}`, body.slice(0, 120))
      }
    } catch (error) {
      unexpected++
      examples.set(`${init.method ?? 'GET'} ${target} -> ${error.cause?.code ?? error.message}`, '')
    }
  }
}

await Promise.all(Array.from({ length: CONCURRENCY }, worker))
const seconds = (performance.now() - started) / 1000
samples.push(['end', rssMiB()])
const journal = await (await fetch(`${origin}/__sim/requests`)).json()
server.kill('SIGTERM')
const exitCode = await new Promise((resolve) => server.once('exit', resolve))
clearTimeout(stopTimer)

console.log(`requests served:      ${served} of ${TOTAL} in ${seconds.toFixed(1)} s (${Math.round(served / seconds)} req/s, ${CONCURRENCY} at a time)`)
console.log(`resets:               ${resets}`)
console.log(`unexpected answers:   ${unexpected}`)
for (const [label, mib] of samples) console.log(`resident memory ${label.padEnd(6)} ${mib.toFixed(1)} MiB`)
console.log(`journal entries kept: ${journal.length} (bounded)`)
console.log(`server exit code:     ${exitCode}`)
for (const [example, body] of [...examples].slice(0, 10)) console.log(`  e.g. ${example} ${body}`)
process.exit(unexpected === 0 && served === TOTAL && exitCode === 0 ? 0 : 1)
