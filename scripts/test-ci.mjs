// What CI runs (.ci/run): each part of the suite in turn, stopping at the first that fails, with
// how long each took, so the total against CI's 90 minutes stays in sight.
import { spawnSync } from 'node:child_process'

// The runtimes' parts (Bun, Deno, Mocha, fetch clients) each install their tools in test/runtimes/<name>, from npm's one cache.
// test:loaded runs npm test's vitest suite again beside four CPU-bound processes, on the build `test` made: a test
// that needs an idle machine fails here, not on a contributor's busy one (issue 55).
const PARTS = [
  'test',
  'test:loaded',
  'test:e2e',
  'test:storybook',
  'test:pact',
  'test:container',
  'test:bun',
  'test:deno',
  'test:mocha',
  'test:clients',
  'test:package',
  'test:quick-starts',
  'test:matrix',
]
const took = []
const started = performance.now()
const minutes = (since) => `${((performance.now() - since) / 60_000).toFixed(1)} min`

for (const part of PARTS) {
  const since = performance.now()
  console.log(`\n==== npm run ${part} ====`)
  const { status, signal } = spawnSync('npm', ['run', part], { stdio: 'inherit' })
  took.push(`${minutes(since).padStart(9)}  npm run ${part}${status === 0 ? '' : ' (failed)'}`)
  if (status !== 0) {
    console.error(`\nnpm run ${part} failed (${status ?? signal}).\n${took.join('\n')}`)
    process.exit(status ?? 1)
  }
}
console.log(`\n==== test:ci passed in ${minutes(started)} ====\n${took.join('\n')}`)
