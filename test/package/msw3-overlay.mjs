// msw 3 is installed as the dev dependency `msw3` (npm:msw@^3). To run the
// project on it, .matrix/msw3/ holds a copy of the project's files whose own
// node_modules holds only `msw`, linked to msw 3. Everything else resolves
// from the project's node_modules one folder up, so the source, the tests, the
// build (tsc, the CLI and demo bundles) and the children the tests start all
// load msw 3, and nothing in the project changes.
import { cpSync, mkdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, run } from './registry-node.mjs'

export const MSW3_OVERLAY = join(ROOT, '.matrix', 'msw3')
const RUNTIME_INSTALLS = /[/\\]test[/\\]runtimes[/\\][^/\\]+[/\\]node_modules$/

/** Makes the overlay afresh from the project's current files. */
export function msw3Overlay() {
  rmSync(MSW3_OVERLAY, { recursive: true, force: true })
  mkdirSync(join(MSW3_OVERLAY, 'node_modules'), { recursive: true })
  for (const entry of [
    'src',
    'test',
    'scenarios',
    'scripts',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'vitest.config.ts',
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
    'jest-preset.cjs',
    'docs',
    'examples',
  ]) {
    // Not the runtimes' own installs (Bun's and Deno's binaries): the suite does not run them.
    cpSync(join(ROOT, entry), join(MSW3_OVERLAY, entry), { recursive: true, filter: (source) => !RUNTIME_INSTALLS.test(source) })
  }
  symlinkSync(join(ROOT, 'node_modules/msw3'), join(MSW3_OVERLAY, 'node_modules/msw'), 'dir')
  return MSW3_OVERLAY
}

/** Builds the overlay with the Node of `env` (the CLI's code cache is made for its V8). */
export function buildMsw3Overlay(env) {
  run('npm', ['run', 'build', '--silent'], { cwd: MSW3_OVERLAY, env })
}
