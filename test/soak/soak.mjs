// Soak: 200,000 mixed requests over HTTP against the standalone simulator
// (the built CLI, as users run it), with periodic resets through the admin
// API. Prints requests served, unexpected answers (must be 0) and the
// server's resident memory at the start, middle and end.
// Then an abuse phase against a fresh server with default flags: 100,000
// unauthenticated requests with 60 KB query strings and rotating session ids,
// 10,000 distinct 60 KB junk tokens under a rate limit, 100 faults with huge
// order ids. Every answer must be JSON, the real key's rate limit must hold
// and the server's peak RSS must stay under 150 MiB.
// Then the admin fuzz (admin-soak.mjs): 60 s of random admin calls from 8 workers over 50
// sessions; no admin call may answer a 5xx and no internal error may be logged.
//
//   npm run build && npm run soak            (SOAK_REQUESTS, SOAK_CONCURRENCY, SOAK_ABUSE_REQUESTS,
//                                             SOAK_ADMIN_SECONDS to change the load)
import { adminSoak } from './admin-soak.mjs'
import { memoryMiB, startCli } from './start-cli.mjs'

const TOTAL = Number(process.env.SOAK_REQUESTS ?? 200_000)
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 16)
const RESET_EVERY = 5_000
const KEY = 'petstore-test-key'

const ABUSE_REQUESTS = Number(process.env.SOAK_ABUSE_REQUESTS ?? 100_000)
const PEAK_LIMIT_MIB = 150

const { child: server, apiUrl: url } = await startCli()
const stopTimer = setTimeout(() => {
  console.error('soak: gave up after 15 minutes')
  server.kill('SIGKILL')
  process.exit(1)
}, 15 * 60_000)
const origin = new URL(url).origin
const rssMiB = () => memoryMiB(server.pid, 'VmRSS')

const SCENARIOS = ['default', 'pending', 'shipped', 'missing']
/** Each request kind with the statuses the spec allows for it. */
const kinds = [
  { weight: 50, allowed: [200], make: () => [`${url}/store/orders`, { headers: { Authorization: `Bearer ${KEY}` } }] },
  {
    weight: 25,
    allowed: [204, 404, 409],
    make: (n) => [`${url}/store/orders/${(n % 30) + 1}`, { method: 'DELETE', headers: { Authorization: `Bearer ${KEY}` } }],
  },
  {
    weight: 5,
    allowed: [400],
    make: () => [`${url}/store/orders/not-a-number`, { method: 'DELETE', headers: { Authorization: `Bearer ${KEY}` } }],
  },
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
      const response = await fetch(`${origin}/__sim/reset`, {
        method: 'POST',
        body: JSON.stringify({ scenario: SCENARIOS[resets++ % SCENARIOS.length] }),
      })
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

console.log(
  `requests served:      ${served} of ${TOTAL} in ${seconds.toFixed(1)} s (${Math.round(served / seconds)} req/s, ${CONCURRENCY} at a time)`,
)
console.log(`resets:               ${resets}`)
console.log(`unexpected answers:   ${unexpected}`)
for (const [label, mib] of samples) console.log(`resident memory ${label.padEnd(6)} ${mib.toFixed(1)} MiB`)
console.log(`journal entries kept: ${journal.length} (bounded)`)
console.log(`server exit code:     ${exitCode}`)
for (const [example, body] of [...examples].slice(0, 10)) console.log(`  e.g. ${example} ${body}`)

// The abuse phase, against a fresh server with default flags.
const abuse = await startCli()
const abuseOrigin = new URL(abuse.apiUrl).origin
let abuseAnswers = 0
let notJson = 0
let abuseUnexpected = 0
const abuseExamples = new Map()
async function expectJson(target, init, allowed) {
  const response = await fetch(target, init)
  const body = await response.text()
  abuseAnswers++
  let json = true
  try {
    JSON.parse(body)
  } catch {
    json = false
  }
  if (!json || !/^application\/json/.test(response.headers.get('content-type') ?? '')) notJson++
  if (!allowed.includes(response.status)) {
    abuseUnexpected++
    abuseExamples.set(`${init?.method ?? 'GET'} ${target.slice(0, 60)} -> ${response.status}`, body.slice(0, 120))
  }
  return response.status
}
const abuseStarted = performance.now()
const query = 'q'.repeat(60_000)
let next = 0
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let n = next++; n < ABUSE_REQUESTS; n = next++) {
      const path = n % 2 === 0 ? `/v1/x?${n}&${query}` : `/v1/store/orders?${n}&${query}`
      await expectJson(`${abuseOrigin}${path}`, { headers: { 'X-Sim-Session': `abuse-${n}` } }, n % 2 === 0 ? [404] : [401])
    }
  }),
)
const afterFlood = memoryMiB(abuse.child.pid, 'VmRSS')
const peakAfterFlood = memoryMiB(abuse.child.pid, 'VmHWM')
const sessions = await (await fetch(`${abuseOrigin}/__sim/sessions`)).json()
// A rate limit, the real key's budget half spent, then 10,000 distinct 60 KB junk tokens.
await expectJson(`${abuseOrigin}/__sim/rate-limit`, { method: 'PUT', body: '"4/600s"' }, [200])
for (let n = 0; n < 2; n++) await expectJson(`${abuse.apiUrl}/store/orders`, { headers: { Authorization: `Bearer ${KEY}` } }, [200])
const junk = 'j'.repeat(60_000)
next = 0
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let n = next++; n < 10_000; n = next++)
      await expectJson(`${abuse.apiUrl}/store/orders`, { headers: { Authorization: `Bearer ${n}${junk}` } }, [401])
  }),
)
const realKey = []
for (let n = 0; n < 3; n++)
  realKey.push(await expectJson(`${abuse.apiUrl}/store/orders`, { headers: { Authorization: `Bearer ${KEY}` } }, [200, 429]))
const limitHeld = realKey.join(',') === '200,200,429'
const peakAfterTokens = memoryMiB(abuse.child.pid, 'VmHWM')
// 100 faults with a 500,000-digit order id: each refused.
const digits = '9'.repeat(500_000)
for (let n = 0; n < 100; n++) {
  await expectJson(
    `${abuseOrigin}/__sim/faults`,
    { method: 'POST', body: JSON.stringify({ operation: 'cancelOrder', kind: 'network', orderId: `${n}${digits}` }) },
    [400],
  )
}
const faults = await (await fetch(`${abuseOrigin}/__sim/faults`)).json()
const abuseSeconds = (performance.now() - abuseStarted) / 1000
const peak = memoryMiB(abuse.child.pid, 'VmHWM')
abuse.child.kill('SIGTERM')
const abuseExit = await new Promise((resolve) => abuse.child.once('exit', resolve))

console.log(`\nabuse phase (fresh server, default flags), ${abuseSeconds.toFixed(1)} s:`)
console.log(
  `  ${ABUSE_REQUESTS} unauthenticated requests, 60 KB queries, rotating session ids: sessions made ${sessions.length}, RSS after ${afterFlood.toFixed(1)} MiB`,
)
console.log(
  `  10,000 distinct 60 KB junk tokens under "4/600s": the real key then got ${realKey.join(', ')} (${limitHeld ? 'its limit held' : 'LIMIT LIFTED'})`,
)
console.log(`  100 faults with 500,000-digit order ids: active faults after ${faults.length}`)
console.log(`  answers ${abuseAnswers}, not JSON ${notJson}, unexpected status ${abuseUnexpected}`)
console.log(
  `  peak RSS ${peak.toFixed(1)} MiB (limit ${PEAK_LIMIT_MIB}; ${peakAfterFlood.toFixed(1)} after the flood, ${peakAfterTokens.toFixed(1)} after the tokens); exit code ${abuseExit}`,
)
for (const [example, body] of [...abuseExamples].slice(0, 10)) console.log(`  e.g. ${example} ${body}`)
const abuseOk =
  notJson === 0 &&
  abuseUnexpected === 0 &&
  limitHeld &&
  sessions.length === 0 &&
  faults.length === 0 &&
  peak < PEAK_LIMIT_MIB &&
  abuseExit === 0
const adminOk = await adminSoak()
process.exit(unexpected === 0 && served === TOTAL && exitCode === 0 && abuseOk && adminOk ? 0 : 1)
