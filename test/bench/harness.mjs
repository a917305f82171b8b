// What the bench scripts share: starting servers pinned to core 0, loading
// them from core 1 (wrk when installed, else autocannon), peak RSS, cold start.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
export const CONNECTIONS = 10
export const KEY = 'petstore-test-key'
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0
export const TASKSET = has('taskset') && cpus().length > 1
export const WRK = has('wrk')
export const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'))

const pinned = (core, command, args) => (TASKSET ? ['taskset', ['-c', String(core), command, ...args]] : [command, args])
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

export function peakRssMiB(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
  } catch {
    return Number.NaN
  }
}

/** CPU time (user + system) a process has used, in ms; NaN where /proc is not there. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ')
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the command), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}

/** Starts a server process and resolves with its port once it prints a line with one. */
export async function start(kind, args) {
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
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve)
        child.kill('SIGTERM')
      }),
  }
}

function toMs(text) {
  const match = /([\d.]+)(us|ms|s)/.exec(text)
  if (!match) return Number.NaN
  const value = Number(match[1])
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value
}

/** The headers of every request the load sends unless `headers` is given: the key. */
const AUTH = { Authorization: `Bearer ${KEY}` }

/** What a browser sends before a cross-origin cancel with a key: the CORS preflight the bench measures. */
export const PREFLIGHT = {
  method: 'OPTIONS',
  headers: {
    Origin: 'http://localhost:5173',
    'Access-Control-Request-Method': 'DELETE',
    'Access-Control-Request-Headers': 'authorization',
  },
}

/** Drives one URL for `seconds` with `headers` (default: the key); returns req/s and p50/p99 latency in ms. */
export function load(url, { method = 'GET', seconds = SECONDS, headers = AUTH } = {}) {
  if (WRK) {
    const script = join(work, `${method}-${Object.keys(headers).length}.lua`)
    const lines = Object.entries(headers).map(([name, value]) => `wrk.headers["${name}"] = "${value}"`)
    writeFileSync(script, `wrk.method = "${method}"\n${lines.join('\n')}\n`)
    const [command, args] = pinned(1, 'wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '-s', script, url])
    const out = execFileSync(command, args, { encoding: 'utf8' })
    return {
      requests: Number(/(\d+) requests in/.exec(out)?.[1]),
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
      p50: toMs(/\s50%\s+(\S+)/.exec(out)?.[1] ?? ''),
      p99: toMs(/\s99%\s+(\S+)/.exec(out)?.[1] ?? ''),
      non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    }
  }
  const autocannon = join(ROOT, 'node_modules/autocannon/autocannon.js')
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}=${value}`])
  const [command, args] = pinned(1, process.execPath, [
    autocannon,
    '-j',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(seconds),
    '-m',
    method,
    ...headerArgs,
    url,
  ])
  const out = JSON.parse(execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))
  return { requests: out.requests.total, rps: out.requests.average, p50: out.latency.p50, p99: out.latency.p99, non2xx: out.non2xx }
}

export function writeScenario(count, statuses = { pending: 1, shipped: 1 }, routeCount = 0) {
  const file = join(work, `orders-${count}-${Object.keys(statuses).join('-')}-${routeCount}-routes.json`)
  // Long, distinct paths: what a recorded deployment gives, and what made an unknown request cost most.
  const routes = Array.from({ length: routeCount }, (_, index) => ({
    method: 'GET',
    path: `/recorded/${'segment-'.repeat(20)}${index}/{id}/items`,
    status: 200,
    body: { index },
  }))
  writeFileSync(
    file,
    JSON.stringify({
      name: `bench-${count}`,
      description: `${count} generated orders`,
      apiKeys: [KEY],
      generate: { count, seed: 1, statuses },
      ...(routeCount === 0 ? {} : { routes }),
    }),
  )
  return file
}

/**
 * Spawn to first 200 of a server, five runs: the median and each run in ms.
 * `server` is a built CLI (started on the default scenario) or the argument list of any server
 * script that prints its port (the raw node:http baseline).
 */
export async function coldStart(server, runCount = 5) {
  const args = typeof server === 'string' ? [server, '--port', '0', '--quiet'] : server
  const runs = []
  for (let run = 0; run < runCount; run++) {
    const started = performance.now()
    // Port 0: a fixed port can be held by a client socket from the load runs.
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    const port = await new Promise((resolve, reject) => {
      let out = ''
      const timer = setTimeout(() => reject(new Error('no ready line within 10 s')), 10_000)
      child.stdout.on('data', (chunk) => {
        out += chunk
        const match = /(?:ready at http:\/\/127\.0\.0\.1:|ready )(\d+)/.exec(out)
        if (match) {
          clearTimeout(timer)
          resolve(Number(match[1]))
        }
      })
    })
    const response = await fetch(`http://127.0.0.1:${port}/v1/store/orders`, { headers: { Authorization: `Bearer ${KEY}` } })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`cold start: first answer was ${response.status}`)
    runs.push(performance.now() - started)
    await new Promise((resolve) => {
      child.once('exit', resolve)
      child.kill('SIGTERM')
    })
  }
  return { median: median(runs), runs: runs.map(Math.round) }
}
