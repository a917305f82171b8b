import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach } from 'vitest'

export const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))))
export const CLI = join(ROOT, 'dist/cli.mjs')
const READY = /^Petstore simulator ready at (\S+) \(scenario: ([^,]+), (.+)\)$/m

export interface CliRun {
  child: ChildProcess
  stdout(): string
  stderr(): string
  /** Resolves with the exit code (or the signal's name) once the process ends. */
  exited: Promise<number | string | null>
}

export interface ReadyCli extends CliRun {
  /** The API base URL from the ready line. */
  url: string
  scenario: string
  keys: string
}

/** Spawns a command with the CI-like environment; every process is killed after the test. */
export function useProcesses(): (command: string, args: string[], env?: Record<string, string>) => CliRun {
  const children: ChildProcess[] = []
  afterEach(() => {
    for (const child of children.splice(0)) {
      // The whole process group: `npm start` runs the server as a grandchild.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {
          // Already gone.
        }
      }
    }
  })
  return (command, args, env = {}) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    children.push(child)
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | string | null>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)))
    return { child, stdout: () => stdout, stderr: () => stderr, exited }
  }
}

/** Waits for the ready line; fails with the process output if it exits or stays silent for 15 s. */
export function whenReady(run: CliRun): Promise<ReadyCli> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line after 15 s.\nstdout: ${run.stdout()}\nstderr: ${run.stderr()}`)), 15_000)
    const check = () => {
      const match = READY.exec(run.stdout())
      if (match) {
        clearTimeout(timer)
        resolve({ ...run, url: match[1] ?? '', scenario: match[2] ?? '', keys: match[3] ?? '' })
      }
    }
    run.child.stdout?.on('data', check)
    void run.exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${String(code)} before the ready line.\nstdout: ${run.stdout()}\nstderr: ${run.stderr()}`))
    })
  })
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  return typeof address === 'object' && address !== null ? address.port : 0
}
