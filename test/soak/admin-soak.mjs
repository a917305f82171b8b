// The admin fuzz of test/admin-fuzz.test.ts as a soak: random admin calls (every route of the
// served admin document, int64 edges, deep, truncated and non-JSON bodies) and order API calls,
// from 8 workers over 50 sessions, for 60 s against the built CLI. No admin call may answer a 5xx,
// the server may log no internal error, it must still answer after, and its peak RSS must stay
// under the bound. Part of npm run soak; alone: npm run build && node test/soak/admin-soak.mjs
// (SOAK_ADMIN_SECONDS, SOAK_ADMIN_WORKERS, FC_SEED to change it).
import fc from 'fast-check'
import { calls, send } from '../support/admin-fuzz.mjs'
import { memoryMiB, startCli } from './start-cli.mjs'

const SECONDS = Number(process.env.SOAK_ADMIN_SECONDS ?? 60)
const WORKERS = Number(process.env.SOAK_ADMIN_WORKERS ?? 8)
const SESSIONS = Array.from({ length: 50 }, (_, index) => `soak-${index}`)
const PEAK_LIMIT_MIB = 200

/** Runs the admin soak; resolves true when it held. */
export async function adminSoak() {
  const seed = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31))
  const server = await startCli()
  const origin = new URL(server.apiUrl).origin
  const document = await (await fetch(`${origin}/__sim/openapi.json`)).json()
  const arbitrary = calls(document, SESSIONS)
  const statuses = new Map()
  const examples = new Map()
  let sent = 0
  let adminServerErrors = 0
  let apiServerErrors = 0
  let failedToArrive = 0
  let batch = 0
  const deadline = performance.now() + SECONDS * 1000
  const started = performance.now()

  async function worker() {
    while (performance.now() < deadline) {
      // Each batch from its own seed: a run is replayable from the printed one.
      for (const call of fc.sample(arbitrary, { seed: seed + batch++, numRuns: 200 })) {
        if (performance.now() >= deadline) return
        const answer = await send(origin, call, 1000)
        sent++
        const family = answer.status === 0 ? 'no answer' : `${String(answer.status)[0]}xx`
        statuses.set(family, (statuses.get(family) ?? 0) + 1)
        if (answer.status === 0) failedToArrive++
        if (answer.status >= 500 && call.kind === 'admin') {
          adminServerErrors++
          examples.set(`${call.method} ${call.path.slice(0, 80)} -> ${answer.status}`, answer.text.slice(0, 160))
        }
        // The order API answers 5xx when a fault asks (internal_error, bad_gateway, ...): counted, told apart by the log.
        if (answer.status >= 500 && call.kind === 'api') apiServerErrors++
      }
    }
  }
  await Promise.all(Array.from({ length: WORKERS }, worker))
  const seconds = (performance.now() - started) / 1000
  const after = await fetch(`${server.apiUrl}/store/orders`, { headers: { 'X-Sim-Session': 'soak-after' } })
  const stillAnswers = after.status === 401 || after.status === 200
  await after.arrayBuffer()
  const rss = memoryMiB(server.child.pid, 'VmRSS')
  const peak = memoryMiB(server.child.pid, 'VmHWM')
  const sessions = await (await fetch(`${origin}/__sim/sessions`)).json()
  server.child.kill('SIGTERM')
  const exitCode = await new Promise((resolve) => server.child.once('exit', resolve))
  const internalErrors = server.stderr
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('Internal error')).length

  console.log(`\nadmin fuzz (fast-check seed ${seed}; replay with FC_SEED=${seed}), ${seconds.toFixed(1)} s, ${WORKERS} workers:`)
  console.log(
    `  calls ${sent} (${Math.round(sent / seconds)}/s): ${[...statuses].map(([family, count]) => `${family} ${count}`).join(', ')}`,
  )
  console.log(
    `  5xx from the admin API ${adminServerErrors}; from the order API ${apiServerErrors} (faults the fuzz set); no answer ${failedToArrive}`,
  )
  console.log(`  internal errors logged ${internalErrors}; sessions at the end ${sessions.length}; still answering ${stillAnswers}`)
  console.log(`  RSS at the end ${rss.toFixed(1)} MiB, peak ${peak.toFixed(1)} MiB (limit ${PEAK_LIMIT_MIB}); exit code ${exitCode}`)
  for (const [example, body] of [...examples].slice(0, 10)) console.log(`  e.g. ${example} ${body}`)
  return adminServerErrors === 0 && internalErrors === 0 && stillAnswers && peak < PEAK_LIMIT_MIB && exitCode === 0
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit((await adminSoak()) ? 0 : 1)
