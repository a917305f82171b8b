// README's container quick start as written (issue 43), its `docker` lines run by podman through a shell
// function. Two changes only, both forced by this machine: the base image is the local stand-in of
// node:24-slim (no registry is reachable) and the published port binds loopback on a free port (tests stay
// on 127.0.0.1); the rest of each line, flags and paths included, is README's.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../support/cli-process.js'
import { run } from './podman.js'

/** The lines of README's first `sh` block under "## Quick start: a container". */
export function readmeContainerLines(): { build: string; prepare: string[]; start: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Quick start: a container'))
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1]
  if (block === undefined) throw new Error('README.md has no sh block under "## Quick start: a container".')
  const lines = block.split('\n').filter((line) => line.trim() !== '')
  const build = lines.find((line) => line.startsWith('docker build '))
  const start = lines.find((line) => line.startsWith('docker run '))
  if (build === undefined || start === undefined) throw new Error(`README's container block lacks docker build or docker run:\n${block}`)
  return { build, prepare: lines.filter((line) => !line.startsWith('docker ')), start }
}

export interface Shim {
  /** The local base image, passed as NODE_IMAGE to `docker build`. */
  base: string
  /** The container's name, given to `docker run` with `-d`. */
  name?: string
  /** The host port for README's `-p 4010:4010`. */
  port?: number
}

/** `docker` as a shell function over podman: build without a layer cache, run detached under a name. */
function shimmed({ base, name }: Shim, line: string): string {
  const docker = [
    'docker() {',
    '  local verb=$1; shift',
    '  case $verb in',
    `    build) podman build --layers=false --format docker --build-arg NODE_IMAGE=${base} "$@" ;;`,
    `    run) podman run -d --name ${name ?? 'unnamed'} "$@" ;;`,
    '    *) podman "$verb" "$@" ;;',
    '  esac',
    '}',
  ].join('\n')
  return `${docker}\n${line}`
}

/** Runs README's lines in `cwd` as bash does, `docker` being podman; throws with the output when one fails. */
export function runReadmeLines(shim: Shim, lines: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const script = lines.map((line) => (shim.port === undefined ? line : line.replace('-p 4010:4010', `-p 127.0.0.1:${shim.port}:4010`)))
  return run('bash', ['-euc', shimmed(shim, script.join('\n'))], { cwd, env }).stdout
}
