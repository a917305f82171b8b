// Issue 44's band, each as the simulator's figure over a baseline's from the same run: raw node:http's, or
// for the preflight the simulator's own list of 100 orders.
// `results` is what bench.mjs gathered; returns the markdown lines of the table.

const f = (value, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–'

/** [figure, simulator, baseline, unit, digits, bound, at least (true) or at most (false)] */
function goals({ comparison, coldStartMs, preflight }) {
  const small = comparison[100]
  const large = comparison[10_000]
  return [
    ['req/s, list of 100 orders', small.simulator.rps, small.raw.rps, '', 0, 0.8, true],
    ['p99 latency, list of 100 orders', small.simulator.p99, small.raw.p99, ' ms', 2, 1.3, false],
    ['peak RSS, 100 orders', small.simulator.peakRssMiB, small.raw.peakRssMiB, ' MiB', 1, 1.4, false],
    ['peak RSS, 10,000 orders', large.simulator.peakRssMiB, large.raw.peakRssMiB, ' MiB', 1, 1.4, false],
    ['cold start, spawn to first 200', coldStartMs.simulator.median, coldStartMs.raw.median, ' ms', 0, 1.6, false],
    ['req/s, list of 10,000 orders', large.simulator.rps, large.raw.rps, '', 0, 0.9, true],
    ['req/s, CORS preflight (baseline: the list of 100)', preflight.rps, small.simulator.rps, '', 0, 0.5, true],
  ]
}

export function goalLines(results) {
  const lines = ['| Goal (issue 44) | simulator | baseline (raw node:http) | ratio | goal | holds |', '|---|---|---|---|---|---|']
  for (const [figure, simulator, raw, unit, digits, bound, atLeast] of goals(results)) {
    const ratio = simulator / raw
    // As products, so that a p99 of 0 ms on both sides (autocannon counts whole ms) holds rather than dividing by 0.
    const holds = atLeast ? simulator >= raw * bound : simulator <= raw * bound
    lines.push(
      `| ${figure} | ${f(simulator, digits)}${unit} | ${f(raw, digits)}${unit} | ${f(ratio, 2)} x | ${atLeast ? '>=' : '<='} ${bound} x | ${holds ? 'yes' : 'no'} |`,
    )
  }
  // Not a goal: the server's CPU time per request, which other work on the machine disturbs less than req/s.
  for (const count of [100, 10_000]) {
    const { simulator, raw } = results.comparison[count]
    lines.push(
      `| (server CPU per request, list of ${f(count)} orders: raw / simulator) | ${f(simulator.cpuUsPerRequest, 1)} µs | ${f(raw.cpuUsPerRequest, 1)} µs | ${f(raw.cpuUsPerRequest / simulator.cpuUsPerRequest, 2)} x | | |`,
    )
  }
  return lines
}
