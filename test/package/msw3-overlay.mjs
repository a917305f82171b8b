// msw 3 is installed here, into .matrix/msw3-install/, not as a dev dependency:
// it needs Node.js 22.12+, and as one `npm ci` on Node 20 printed an EBADENGINE
// warning for it and each of its dependencies. To run the project on it,
// .matrix/msw3/ holds a copy of the project's files whose own node_modules
// holds only `msw`, linked to that msw 3. Everything else resolves
// from the project's node_modules one folder up, so the source, the tests, the
// build (tsc, the CLI and demo bundles) and the children the tests start all
// load msw 3, and nothing in the project changes.
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, run } from './registry-node.mjs'

export const MSW3_OVERLAY = join(ROOT, '.matrix', 'msw3')
const MSW3_INSTALL = join(ROOT, '.matrix', 'msw3-install')
/** The msw 3 the matrix runs on: the version CI has tested, from npm's cache after the first time. */
const MSW3 = 'msw@3.0.5'
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
  symlinkSync(msw3(), join(MSW3_OVERLAY, 'node_modules/msw'), 'dir')
  return MSW3_OVERLAY
}

/** The folder of msw 3, installed on first use: what the overlay links, and what bench:in-process loads. */
export function msw3() {
  if (!existsSync(join(MSW3_INSTALL, 'node_modules/msw/package.json'))) {
    mkdirSync(MSW3_INSTALL, { recursive: true })
    writeFileSync(join(MSW3_INSTALL, 'package.json'), JSON.stringify({ name: 'msw3-install', private: true }))
    // No install scripts, as `npm ci` runs none of msw's; its engines are the matrix's Nodes' to meet.
    run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', MSW3], { cwd: MSW3_INSTALL })
  }
  return join(MSW3_INSTALL, 'node_modules/msw')
}

/** Builds the overlay with the Node of `env`. */
export function buildMsw3Overlay(env) {
  run('npm', ['run', 'build', '--silent'], { cwd: MSW3_OVERLAY, env })
}
