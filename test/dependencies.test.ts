import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT } from './support/cli-process.js'

interface LockedPackage {
  dev?: boolean
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}

test("no runtime dependency is or brings an msw: the consumer's own msw is the one copy that builds and runs the handlers", () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> }
  const runtime = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && entry.dev !== true)
  expect(runtime.length).toBeGreaterThan(10)
  const withMsw = runtime
    .filter(
      ([path, entry]) =>
        /(^|\/)msw$/.test(path) ||
        [entry.dependencies, entry.optionalDependencies, entry.peerDependencies].some((list) => list?.['msw'] !== undefined),
    )
    .map(([path]) => path)
  expect(withMsw).toEqual([])
})
