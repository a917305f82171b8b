import { type CliCommand, parseCommandLine } from './cli/cli-options.js'
import { helpText } from './cli/flags.js'
import { escapeControls } from './cli/terminal-text.js'
import { CliUsageError } from './cli/usage-error.js'
import { isScenarioError } from './core/scenario/scenario-error.js'
import { internalsOf } from './core/simulator/internals.js'
import { systemErrorCode } from './core/system-error-code.js'
import { packageFile, packageVersion } from './transports/node/package-root.js'
import { isLoopbackBind, startSimulatorServer, type RunningSimulator } from './transports/standalone/start-server.js'

/** How long SIGINT/SIGTERM waits for requests in flight before closing their connections. */
const SHUTDOWN_GRACE_MS = 10_000

/** One line for stderr that says what failed and what to do; never a stack. */
function describeStartupError(error: unknown, host: string, port: number): string {
  if (error instanceof CliUsageError || isScenarioError(error)) return error.message
  switch (systemErrorCode(error)) {
    case 'EADDRINUSE':
      return `Failed to start the simulator: ${host}:${port} is already in use. Pick another port with --port (0 picks a free one).`
    case 'EACCES':
      return `Failed to start the simulator: no permission to listen on ${host}:${port}. Pick a port above 1023 with --port.`
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `Failed to start the simulator: cannot listen on host "${host}" (not an address of this machine). Use --host 127.0.0.1.`
    default:
      return error instanceof Error && error.message.startsWith('Failed to')
        ? error.message
        : `Failed to start the simulator: ${error instanceof Error ? error.message : String(error)}`
  }
}

function describeKeys(keys: readonly string[]): string {
  if (keys.length === 0) return 'key: none accepted'
  return keys.length === 1 ? `key: ${keys[0]}` : `keys: ${keys.join(', ')}`
}

function shutDownOn(running: RunningSimulator): void {
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    const force = setTimeout(() => running.server.closeAllConnections(), SHUTDOWN_GRACE_MS)
    force.unref()
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Failed to stop the simulator cleanly: ${error instanceof Error ? error.message : String(error)}\n`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

const output = () => ({
  stdout: (text: string) => void process.stdout.write(text),
  stderr: (text: string) => void process.stderr.write(text),
})

/** The subcommands, each loaded when it runs only: a start does not carry their code. Each gives its exit code. */
const SUBCOMMANDS: Readonly<Record<string, (argv: string[]) => Promise<number>>> = {
  verify: async (argv) => (await import('./cli/verify/verify-main.js')).verifyMain(argv, process.env, output()),
  record: async (argv) => (await import('./cli/record/record-main.js')).recordMain(argv, process.env, output()),
  'import-har': async (argv) => (await import('./cli/import-har/import-har-main.js')).importHarMain(argv, output()),
  coverage: async (argv) => (await import('./cli/coverage-command/coverage-main.js')).coverageMain(argv, output()),
  // stdout carries MCP messages and nothing else. Once its input closed and what it was sent is answered,
  // nothing is left to wait for: a call still running for an assistant that went away, a keep-alive socket.
  mcp: async (argv) =>
    (await import('./cli/mcp-command/mcp-main.js'))
      .mcpMain(argv, process.env, {
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: output().stderr,
        readFile: packageFile,
        version: packageVersion(),
      })
      .then((code) => process.exit(code)),
}

async function main(): Promise<void> {
  // A subcommand of its own: its flags, its exit codes (2 for bad usage), its output.
  // Own keys only: `petstore-sim toString` is no subcommand.
  const name = process.argv[2] ?? ''
  const subcommand = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined
  if (subcommand !== undefined) {
    process.exitCode = await subcommand(process.argv.slice(3))
    return
  }
  let command: CliCommand
  try {
    command = parseCommandLine(process.argv.slice(2), process.env)
  } catch (error) {
    process.stderr.write(`${describeStartupError(error, '', 0)}\n`)
    process.exit(1)
  }
  if (command.kind === 'help') {
    process.stdout.write(`${helpText()}\n`)
    return
  }
  if (command.kind === 'version') {
    process.stdout.write(`${packageVersion()}\n`)
    return
  }
  const { options, quiet } = command
  const host = options.host ?? '127.0.0.1'
  const log = (line: string) => void process.stdout.write(`${line}\n`)
  // Recording: the deployment's orders read before the start (unless a scenario is named), and each save's summary.
  const recording = options.proxy?.record === true ? await import('./cli/record/start-read.js') : undefined
  let startRead: Awaited<ReturnType<NonNullable<typeof recording>['readDeploymentAtStart']>> | undefined
  let running: RunningSimulator
  try {
    if (recording !== undefined && command.readAtStart !== undefined && options.proxy !== undefined)
      startRead = await recording.readDeploymentAtStart(options.proxy, command.readAtStart.pets, `petstore-sim/${packageVersion()}`)
    running = await startSimulatorServer({
      ...options,
      ...(startRead === undefined ? {} : { scenario: startRead.scenario }),
      ...(quiet ? {} : { log }),
      ...(recording === undefined || quiet ? {} : { onSaved: ({ name }) => tellSave(name) }),
      // The client gets a 500 without details; the operator gets the whole story.
      onError: (error: unknown) =>
        process.stderr.write(
          `Internal error (answered 500 internal_error): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        ),
    })
  } catch (error) {
    process.stderr.write(`${describeStartupError(error, host, options.port ?? 4010)}\n`)
    process.exit(1)
  }
  shutDownOn(running)
  const { scenario, apiKeys, routes } = running.sim.state()
  const started = { answers: startRead?.answers ?? [], routes: recording?.routeKeys(routes) ?? new Set<string>() }
  // What a save wrote, read back, and what the traffic showed: the file is what a later run replays.
  function tellSave(name: string): void {
    try {
      const saved = internalsOf(running.sim).folder?.load(name)
      if (saved !== undefined && recording !== undefined)
        for (const line of recording.savedTrafficLines(saved.source, saved.text, started, options.proxy?.key)) log(line)
    } catch (error) {
      // The save itself succeeded: only its summary is missing.
      log(
        `Saved scenario "${name}", but could not read it back to say what the traffic showed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      )
    }
  }
  // The token is printed only when the server made it: one the operator chose stays off the screen.
  const madeToken = running.adminToken !== null && options.adminToken === undefined ? `, admin token: ${running.adminToken}` : ''
  const folder = internalsOf(running.sim).folder
  const files = folder?.list().length ?? 0
  const scenarios = folder === undefined ? '' : `, scenarios folder: ${folder.dir} (${files} file${files === 1 ? '' : 's'})`
  // The target, never its key: what is not simulated goes there.
  const proxy =
    options.proxy === undefined
      ? ''
      : `, forwarding the rest to ${options.proxy.target}${options.proxy.record === true ? ', recording' : ''}`
  // Said even for none: the file was read and its default state restored.
  if (running.restoredSessions !== null && options.stateFile !== undefined)
    log(`restored ${running.restoredSessions} session${running.restoredSessions === 1 ? '' : 's'} from ${options.stateFile}`)
  else if (options.stateFile !== undefined)
    log(`state file ${options.stateFile}: nothing to restore; every state is saved there from now on`)
  process.stdout.write(
    `Petstore simulator ready at ${running.url} (scenario: ${scenario}${startRead === undefined ? '' : `, ${startRead.origin}`}, ${describeKeys(apiKeys)}${scenarios}${proxy}${madeToken})\n`,
  )
  // What the start read kept and left out (a second order of one id, a pet record not read), as `record` says it.
  if (startRead !== undefined && !quiet) log(escapeControls(startRead.scenario.description ?? ''))
  if (!isLoopbackBind(host)) {
    process.stderr.write(
      `Warning: listening on ${host}, reachable from other machines. ` +
        `${running.adminToken === null ? 'The admin API is off.' : 'The admin API under /__sim requires the admin token.'}\n`,
    )
  }
}

void main()
