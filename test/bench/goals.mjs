// Issue 35's goals, each as the simulator's figure over raw node:http's from the same run.
// `results` is what bench.mjs gathered; returns the markdown lines of the table.

const f = (value, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–'

/** [figure, simulator, raw, unit, digits, bound, at least (true) or at most (false)] */
function goals({ comparison, coldStartMs }) {
  const small = comparison[100]
  const large = comparison[10_000]
  return [
    ['req/s, list of 100 orders', small.simulator.rps, small.raw.rps, '', 0, 0.85, true],
    ['p99 latency, list of 100 orders', small.simulator.p99, small.raw.p99, ' ms', 2, 1.2, false],
    ['peak RSS, 100 orders', small.simulator.peakRssMiB, small.raw.peakRssMiB, ' MiB', 1, 1.25, false],
    ['peak RSS, 10,000 orders', large.simulator.peakRssMiB, large.raw.peakRssMiB, ' MiB', 1, 1.25, false],
    ['cold start, spawn to first 200', coldStartMs.simulator.median, coldStartMs.raw.median, ' ms', 0, 1.3, false],
    ['req/s, list of 10,000 orders', large.simulator.rps, large.raw.rps, '', 0, 0.95, true],
  ]
}

export function goalLines(results) {
  const lines = ['| Goal (issue 35) | simulator | raw node:http | ratio | goal | holds |', '|---|---|---|---|---|---|']
  for (const [figure, simulator, raw, unit, digits, bound, atLeast] of goals(results)) {
    const ratio = simulator / raw
    const holds = atLeast ? ratio >= bound : ratio <= bound
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
