// The built CLI as users run it, for the soak scripts: started with default flags on a free port.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url))

/**
 * Starts the built CLI; resolves with the process, its API URL and the lines it wrote to its
 * standard error so far (an internal error is logged there).
 */
export async function startCli() {
  const child = spawn(process.execPath, [cli, '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] })
  const stderr = []
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk)
    stderr.push(chunk)
  })
  const apiUrl = await new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /ready at (\S+)/.exec(out)
      if (match) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`the simulator exited with ${code} before it was ready`)))
  })
  return { child, apiUrl, stderr }
}

/** A memory figure of a process from /proc, in MiB: VmRSS now, VmHWM its peak. */
export function memoryMiB(pid, field) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024
}
