// Newer Nodes for the matrix and the smoke test: the npm registry's `node`
// package, installed once into .matrix/node-<version>/.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Runs a command with inherited output; throws when it fails. */
export function run(command, args, options) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`)
}

/** The bin folder of Node `version` from the registry. */
export function nodeBin(version) {
  const folder = join(ROOT, '.matrix', `node-${version}`)
  const bin = join(folder, 'node_modules/node/bin')
  if (!existsSync(join(bin, 'node'))) {
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'package.json'), '{"private":true}')
    run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `node@${version}`], { cwd: folder })
  }
  return bin
}

/** An environment whose `node` (and so `npm` and `npx`) is Node `version`; the machine's when null. */
export function envWithNode(version, extraPath = []) {
  if (version === null) return process.env
  return { ...process.env, PATH: [nodeBin(version), ...extraPath, process.env.PATH].join(delimiter) }
}
