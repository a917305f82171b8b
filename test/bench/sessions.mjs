// npm run bench:sessions: issue 42, section 1. Two phases, each build in turn:
//  1. Sessions on 100,000 generated orders: a scenarios folder with big-store.json, then one
//     DELETE /v1/store/orders/1 per new X-Sim-Session (s1, s2, ...), one after another, while a probe
//     asks GET /__sim/health every 20 ms and /proc/<pid>/status is read every 50 ms. Reports RSS after
//     start, peak RSS, RSS the sessions added, first-change latency, the worst probe wait, survival.
//  2. Start on a scenario file of 10,000 explicit orders: spawn to the first 200 of GET /v1/store/orders
//     and peak RSS (VmHWM), raw node:http (test/bench/raw-server.mjs sending the same list bytes) and
//     each build taking turns, the order rotating every round.
// Usage: node test/bench/sessions.mjs [--build NAME=/path/to/checkout ...] [--sessions 60] [--rounds 7]
//        [--time-limit 120] [--orders 100000] [--explicit 10000]
// Each checkout needs a built dist/cli.mjs. Without --build: this checkout against raw node:http.
// Prints markdown tables on stdout, then one JSON line; progress goes to stderr. Linux (/proc) only.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const RAW_SERVER = fileURLToPath(new URL('./raw-server.mjs', import.meta.url))
const KEY = 'petstore-test-key'
const AUTH = { Authorization: `Bearer ${KEY}` }

// ---- options ----
const options = { sessions: 60, rounds: 7, timeLimit: 120, orders: 100_000, explicit: 10_000 }
const builds = []
const argv = process.argv.slice(2)
for (let i = 0; i < argv.length; i++) {
  const [flag, inline] = argv[i].split(/=(.*)/s, 2)
  const value = () => inline ?? argv[++i]
  if (flag === '--build') {
    const spec = value() ?? ''
    const at = spec.indexOf('=')
    if (at < 1) fail(`--build takes NAME=/path/to/checkout (got "${spec}")`)
    builds.push({ name: spec.slice(0, at), dir: resolve(spec.slice(at + 1)) })
  } else if (flag === '--sessions') options.sessions = positive(flag, value())
  else if (flag === '--rounds') options.rounds = positive(flag, value())
  else if (flag === '--time-limit') options.timeLimit = positive(flag, value())
  else if (flag === '--orders') options.orders = positive(flag, value())
  else if (flag === '--explicit') options.explicit = positive(flag, value())
  else if (flag === '--help' || flag === '-h') {
    console.log(
      readFileSync(fileURLToPath(import.meta.url), 'utf8')
        .split('\nimport ')[0]
        .replace(/^\/\/ ?/gm, ''),
    )
    process.exit(0)
  } else fail(`unknown argument ${argv[i]} (see --help)`)
}
if (builds.length === 0) builds.push({ name: 'this checkout', dir: ROOT })
for (const build of builds) {
  build.cli = join(build.dir, 'dist/cli.mjs')
  if (!existsSync(build.cli)) fail(`${build.name}: no ${build.cli}; run "npm run build" in ${build.dir} first.`)
}
if (!existsSync('/proc/self/status')) fail('this bench reads /proc/<pid>/status (Linux only).')

function fail(message) {
  console.error(`bench:sessions: ${message}`)
  process.exit(2)
}
function positive(flag, text) {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1) fail(`${flag} takes a positive integer (got "${text}")`)
  return n
}

// ---- children and temp files: gone on every way out ----
const work = mkdtempSync(join(tmpdir(), 'petstore-bench-sessions-'))
const children = new Set()
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
  rmSync(work, { recursive: true, force: true })
})
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => process.exit(130))

const sleep = (ms) => new Promise((done) => setTimeout(done, ms))
const log = (text) => process.stderr.write(`${text}\n`)
const median = (values) => (values.length === 0 ? Number.NaN : [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)])
const mib = (kB) => kB / 1024

/** VmRSS and VmHWM of a process in kB; undefined once it is gone. */
function memory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return { rss: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]), hwm: Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) }
  } catch {
    return undefined
  }
}

/**
 * Spawns a server and resolves once its stdout has a line matching `ready` (its first group: a URL or a port).
 * stdout and stderr are drained; the last 4 KB of stderr are kept for the report.
 */
function launch(command, args, { cwd, ready, timeoutMs }) {
  const started = performance.now()
  const child = spawn(process.execPath, [command, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  const server = { child, pid: child.pid, started, stderr: '', exit: undefined }
  child.stderr.on('data', (chunk) => {
    server.stderr = (server.stderr + chunk).slice(-4096)
  })
  const exited = new Promise((done) => {
    child.once('exit', (code, signal) => {
      server.exit = { code, signal }
      children.delete(child)
      done(server.exit)
    })
  })
  server.exited = exited
  server.stop = async () => {
    if (server.exit) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
    await exited
    clearTimeout(timer)
  }
  server.ready = new Promise((done, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`no ready line within ${timeoutMs} ms`)), timeoutMs)
    const onData = (chunk) => {
      out += chunk
      const match = ready.exec(out)
      if (match) {
        clearTimeout(timer)
        child.stdout.off('data', onData)
        child.stdout.resume()
        server.readyMs = performance.now() - started
        done(match[1])
      }
    }
    child.stdout.on('data', onData)
    exited.then((exit) => {
      clearTimeout(timer)
      reject(new Error(`exited (${exit.code ?? exit.signal}) before its ready line: ${lastLine(server.stderr)}`))
    })
  })
  server.ready.catch(() => {})
  return server
}

const lastLine = (text) =>
  text
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-1)[0] ?? ''

/** One HTTP request; resolves (never rejects) with status and ms to the end of the body, or an error. */
function send(url, { method = 'GET', headers = {}, agent, timeoutMs = 30_000 } = {}) {
  return new Promise((done) => {
    const started = performance.now()
    const finish = (result) => done({ ...result, ms: performance.now() - started })
    const req = httpRequest(url, { method, headers, agent }, (res) => {
      res.on('data', () => {})
      res.on('end', () => finish({ status: res.statusCode }))
      res.on('error', (error) => finish({ error: error.message }))
    })
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    req.on('error', (error) => finish({ error: error.message }))
    req.end()
  })
}

// ---- phase 1: sessions on 100,000 generated orders ----
const scenariosDir = join(work, 'scenarios')
mkdirSync(scenariosDir)
writeFileSync(
  join(scenariosDir, 'big-store.json'),
  JSON.stringify({
    name: 'big-store',
    description: `A QA team's big store: ${options.orders} generated orders (bench:sessions).`,
    apiKeys: [KEY],
    generate: { count: options.orders, seed: 1, statuses: { pending: 1, shipped: 1 } },
  }),
)

async function sessionsPhase(build) {
  const result = { build: build.name, orders: options.orders, sessions: options.sessions, timeLimitS: options.timeLimit }
  const server = launch(
    build.cli,
    ['--port', '0', '--host', '127.0.0.1', '--scenarios-dir', scenariosDir, '--scenario', 'big-store', '--max-sessions', '100'],
    { cwd: build.dir, ready: /ready at (http:\/\/\S+)/, timeoutMs: 120_000 },
  )
  // Memory from the spawn on, every 50 ms.
  const samples = []
  const sampler = setInterval(() => {
    const m = memory(server.pid)
    if (m) samples.push({ at: performance.now(), ...m })
  }, 50)
  try {
    const base = (await server.ready).replace(/\/$/, '')
    result.readyMs = Math.round(server.readyMs)
    const origin = new URL(base).origin
    const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 })
    const sessionAgent = new Agent({ keepAlive: true, maxSockets: 1 })
    // Warm both connections and the admin API (loaded on its first use), then let the start settle.
    for (const agent of [probeAgent, sessionAgent, probeAgent]) {
      const warm = await send(`${origin}/__sim/health`, { agent, timeoutMs: 60_000 })
      if (warm.status !== 200) throw new Error(`GET /__sim/health answered ${warm.status ?? warm.error}`)
    }
    await sleep(1000)
    const atStart = memory(server.pid)
    result.rssStartMiB = mib(atStart.rss)
    result.hwmAtStartMiB = mib(atStart.hwm)
    const phaseStart = performance.now()
    const deadline = phaseStart + options.timeLimit * 1000

    // The probe: one GET /__sim/health at a time, each 20 ms after the last one began.
    let probing = true
    // A probe still unanswered when the phase ends counts with the wait it had so far.
    const probe = { count: 0, worstMs: 0, over100: 0, failures: 0, failed: [], sentAt: undefined }
    const probeLoop = (async () => {
      while (probing) {
        probe.sentAt = performance.now()
        const r = await send(`${origin}/__sim/health`, { agent: probeAgent, timeoutMs: 60_000 })
        probe.sentAt = undefined
        if (r.status === 200) {
          probe.count++
          probe.worstMs = Math.max(probe.worstMs, r.ms)
          if (r.ms > 100) probe.over100++
        } else {
          probe.failures++
          if (probe.failed.length < 3) probe.failed.push(`${r.status ?? r.error} after ${Math.round(r.ms)} ms`)
          if (server.exit) break
        }
        await sleep(Math.max(0, 20 - r.ms))
      }
    })()

    const latencies = []
    result.outcome = 'survived'
    for (let i = 1; i <= options.sessions; i++) {
      const left = deadline - performance.now()
      if (left <= 0) {
        result.outcome = 'time limit'
        break
      }
      const r = await send(`${base}/store/orders/1`, {
        method: 'DELETE',
        headers: { ...AUTH, 'X-Sim-Session': `s${i}` },
        agent: sessionAgent,
        timeoutMs: left,
      })
      if (r.status === 204) {
        latencies.push(r.ms)
        if (i % 10 === 0 || r.ms > 1000) log(`  ${build.name}: session ${i}: ${r.ms.toFixed(1)} ms`)
        continue
      }
      result.phaseS = (performance.now() - phaseStart) / 1000
      await Promise.race([server.exited, sleep(2000)])
      if (server.exit) {
        result.outcome = 'died'
        result.exit = server.exit
        result.stderrTail = lastLine(server.stderr)
      } else if (r.error?.startsWith('no answer within')) {
        result.outcome = 'time limit'
      } else {
        result.outcome = 'failed'
        result.failure = `session s${i}: ${r.status ?? r.error}`
      }
      break
    }
    result.phaseS ??= (performance.now() - phaseStart) / 1000
    result.sessionsDone = latencies.length
    // Let the sampler see what the last change left, then stop the probe.
    await sleep(500)
    probing = false
    await Promise.race([probeLoop, sleep(2000)])
    if (probe.sentAt !== undefined) {
      probe.unansweredMs = performance.now() - probe.sentAt
      probe.worstMs = Math.max(probe.worstMs, probe.unansweredMs)
    }
    delete probe.sentAt
    const during = samples.filter((s) => s.at >= phaseStart)
    const last = memory(server.pid)
    result.peakRssMiB = mib(Math.max(atStart.rss, ...during.map((s) => s.rss)))
    result.addedMiB = result.peakRssMiB - result.rssStartMiB
    result.rssEndMiB = last ? mib(last.rss) : undefined
    result.hwmMiB = mib(Math.max(...samples.map((s) => s.hwm)))
    result.firstSessionMs = latencies[0]
    result.medianMs = median(latencies)
    result.maxMs = latencies.length ? Math.max(...latencies) : Number.NaN
    result.maxAfterFirstMs = latencies.length > 1 ? Math.max(...latencies.slice(1)) : Number.NaN
    result.latenciesMs = latencies.map((ms) => Number(ms.toFixed(1)))
    result.probe = probe
    if (result.outcome === 'survived') {
      const health = await send(`${origin}/__sim/health`, { timeoutMs: 10_000 })
      if (health.status !== 200) result.outcome = `no health after the sessions (${health.status ?? health.error})`
    }
    probeAgent.destroy()
    sessionAgent.destroy()
  } catch (error) {
    result.outcome = 'failed'
    result.failure = error.message
  } finally {
    clearInterval(sampler)
    await server.stop()
  }
  return result
}

// ---- phase 2: start on 10,000 explicit orders ----
const explicitFile = join(work, 'explicit-orders.json')
const explicitOrders = Array.from({ length: options.explicit }, (_, index) => {
  const id = index + 1
  const status = id % 3 === 0 ? 'shipped' : 'pending'
  return {
    id,
    petId: 1 + ((id * 7919) % 5000),
    quantity: 1 + (id % 5),
    shipDate: new Date(Date.UTC(2026, 0, 1) + id * 3_600_000).toISOString(),
    complete: status === 'shipped',
    status,
  }
})
writeFileSync(
  explicitFile,
  JSON.stringify({
    name: 'explicit-orders',
    description: `${options.explicit} explicit orders (bench:sessions).`,
    apiKeys: [KEY],
    orders: explicitOrders,
  }),
)
// The raw server sends the list as the simulator does (status left out), read from a file at its start.
const rawBody = join(work, 'explicit-orders.body.json')
writeFileSync(rawBody, JSON.stringify(explicitOrders.map(({ status, ...order }) => order)))

async function startOnce(target) {
  const server =
    target.raw === true
      ? launch(RAW_SERVER, [rawBody, '0'], { cwd: ROOT, ready: /ready (\d+)/, timeoutMs: 30_000 })
      : launch(target.cli, ['--scenario', explicitFile, '--port', '0', '--host', '127.0.0.1'], {
          cwd: target.dir,
          ready: /ready at (http:\/\/\S+)/,
          timeoutMs: 30_000,
        })
  try {
    const ready = await server.ready
    const base = target.raw === true ? `http://127.0.0.1:${ready}/v1` : ready.replace(/\/$/, '')
    const agent = new Agent({ keepAlive: false })
    const r = await send(`${base}/store/orders`, { headers: AUTH, agent, timeoutMs: 30_000 })
    const ms = performance.now() - server.started
    if (r.status !== 200) throw new Error(`first answer ${r.status ?? r.error}`)
    return { ms, readyMs: server.readyMs, peakMiB: mib(memory(server.pid)?.hwm ?? Number.NaN) }
  } finally {
    await server.stop()
  }
}

async function startPhase() {
  const targets = [{ name: 'raw node:http', raw: true }, ...builds]
  const runs = new Map(targets.map((t) => [t.name, []]))
  // One untimed start each first: the files in the page cache for every round alike.
  for (const target of targets) await startOnce(target).catch(() => {})
  for (let round = 0; round < options.rounds; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length])
    for (const target of order) {
      try {
        runs.get(target.name).push(await startOnce(target))
      } catch (error) {
        runs.get(target.name).push({ error: error.message })
        log(`  ${target.name}: start failed: ${error.message}`)
      }
    }
    log(`  start round ${round + 1}/${options.rounds}`)
  }
  const summary = targets.map((target) => {
    const ok = runs.get(target.name).filter((r) => r.error === undefined)
    return {
      build: target.name,
      runs: ok.length,
      failures: runs.get(target.name).length - ok.length,
      medianMs: median(ok.map((r) => r.ms)),
      readyMedianMs: median(ok.map((r) => r.readyMs)),
      peakRssMiB: median(ok.map((r) => r.peakMiB)),
      eachMs: ok.map((r) => Math.round(r.ms)),
    }
  })
  const raw = summary[0]
  for (const row of summary) {
    row.ratioToRaw = row.medianMs / raw.medianMs
    row.rssRatioToRaw = row.peakRssMiB / raw.peakRssMiB
  }
  return summary
}

// ---- run and report ----
const began = performance.now()
const f = (n, digits = 0) =>
  n === undefined || Number.isNaN(n) ? '-' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const sessionsResults = []
for (const build of builds) {
  log(`Phase 1, ${build.name}: ${options.orders} generated orders, ${options.sessions} sessions (at most ${options.timeLimit} s)`)
  sessionsResults.push(await sessionsPhase(build))
}
log(`Phase 2: start on ${options.explicit} explicit orders, ${options.rounds} interleaved rounds`)
const startResults = await startPhase()

function outcome(r) {
  if (r.outcome === 'survived') return `survived ${r.sessionsDone} sessions`
  if (r.outcome === 'died')
    return `died after ${r.sessionsDone} sessions (${r.exit.code ?? r.exit.signal}${r.stderrTail ? `: ${r.stderrTail.slice(0, 80)}` : ''})`
  if (r.outcome === 'time limit') return `stopped at ${r.timeLimitS} s after ${r.sessionsDone} sessions`
  return `${r.outcome} after ${r.sessionsDone ?? 0} sessions${r.failure ? ` (${r.failure})` : ''}`
}

console.log(
  `\n### Sessions on ${f(options.orders)} generated orders: DELETE /v1/store/orders/1 in ${options.sessions} new X-Sim-Sessions, one after another`,
)
console.log('')
console.log(
  '| build | ready ms | RSS after start MiB | peak RSS MiB | added by the sessions MiB | first change ms: session 1 | median | max (sessions 2+) | worst /__sim/health wait ms | outcome |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|')
for (const r of sessionsResults) {
  console.log(
    `| ${r.build} | ${f(r.readyMs)} | ${f(r.rssStartMiB)} | ${f(r.peakRssMiB)} | ${f(r.addedMiB)} | ${f(r.firstSessionMs, 1)} | ${f(r.medianMs, 1)} | ${f(r.maxAfterFirstMs, 1)} | ${f(r.probe?.worstMs, 1)} | ${outcome(r)} in ${f(r.phaseS, 1)} s |`,
  )
}
console.log('')
console.log(
  `### Start on ${f(options.explicit)} explicit orders: spawn to the first 200 of GET /v1/store/orders, ${options.rounds} interleaved rounds`,
)
console.log('')
console.log('| server | start ms, median (each) | ready line ms, median | vs raw | peak RSS MiB, median | vs raw |')
console.log('|---|---|---|---|---|---|')
for (const r of startResults) {
  console.log(
    `| ${r.build} | ${f(r.medianMs)} (${r.eachMs.join(', ')})${r.failures ? `, ${r.failures} failed` : ''} | ${f(r.readyMedianMs)} | ${f(r.ratioToRaw, 2)} x | ${f(r.peakRssMiB, 1)} | ${f(r.rssRatioToRaw, 2)} x |`,
  )
}
console.log('')
const round1 = (value) => (typeof value === 'number' ? Number(value.toFixed(1)) : value)
const json = {
  bench: 'sessions',
  node: process.version,
  seconds: Math.round((performance.now() - began) / 1000),
  builds: Object.fromEntries(builds.map((b) => [b.name, b.dir])),
  sessions: sessionsResults.map(({ latenciesMs, ...r }) => ({
    ...Object.fromEntries(Object.entries(r).map(([k, v]) => [k, round1(v)])),
    probe: r.probe && { ...r.probe, worstMs: round1(r.probe.worstMs), unansweredMs: round1(r.probe.unansweredMs) },
    latenciesMs,
  })),
  start: startResults.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [k, k.startsWith('ratio') || k.endsWith('ToRaw') ? Number(v.toFixed(2)) : round1(v)]),
    ),
  ),
}
console.log(JSON.stringify(json))
