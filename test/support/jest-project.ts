import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ROOT } from './cli-process.js'

/** Where a dependency of this repository is installed, found as Node finds it (the msw 3 matrix runs from an overlay folder). */
export const packageDir = (name: string): string => dirname(createRequire(import.meta.url).resolve(`${name}/package.json`))

/** What a project that installed the package next to Jest holds in node_modules: links into this repository. */
const LINKED = ['msw', '@jest/globals', '@swc/jest', '@swc/core']

/**
 * A folder set up like a project that ran `npm install --save-dev jest msw petstore-orders-simulator`
 * (the package linked to this repository, as `npm link` would), holding `files`.
 */
export function jestProject(folder: string, type: 'commonjs' | 'module', files: Readonly<Record<string, string>>): string {
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(join(folder, 'node_modules/@jest'), { recursive: true })
  mkdirSync(join(folder, 'node_modules/@swc'), { recursive: true })
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'jest-consumer', private: true, type }))
  symlinkSync(ROOT, join(folder, 'node_modules/petstore-orders-simulator'))
  for (const name of LINKED) symlinkSync(packageDir(name), join(folder, 'node_modules', name))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text)
  return folder
}

export interface JestReport {
  numPassedTests: number
  numFailedTests: number
  testResults: { name: string; status: string; message: string; assertionResults: { status: string; fullName: string }[] }[]
}

export interface JestRun {
  /** Jest's exit code. */
  code: number
  /** What Jest printed, both streams. */
  output: string
  report: JestReport | null
}

/** Runs the repository's Jest in `folder`, in its ES module mode when `esm`; `args` are passed on. */
export function runJest(folder: string, { esm = false, args = [] }: { esm?: boolean; args?: string[] } = {}): Promise<JestRun> {
  const jest = join(packageDir('jest'), 'bin/jest.js')
  const report = join(folder, 'jest-report.json')
  rmSync(report, { force: true })
  const env = { ...process.env, NODE_OPTIONS: esm ? '--experimental-vm-modules --no-warnings' : '', FORCE_COLOR: '0' }
  const jestArgs = ['--ci', '--json', `--outputFile=${report}`, `--cacheDirectory=${join(folder, '.jest-cache')}`, ...args]
  return new Promise((resolve) => {
    execFile(process.execPath, [jest, ...jestArgs], { cwd: folder, env, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
      const parsed = existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as JestReport) : null
      resolve({ code, output: `${stdout}${stderr}`, report: parsed })
    })
  })
}
