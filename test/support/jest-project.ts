import { execFile } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { packageDir } from './linked-project.js'

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
