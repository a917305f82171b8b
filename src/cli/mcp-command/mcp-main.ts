import type { Readable, Writable } from 'node:stream'
import * as v from 'valibot'
import { AdminError, clientOf, httpSend } from '../../core/admin/admin-client.js'
import { isBearerToken } from '../../core/bearer-auth.js'
import { SessionId } from '../../core/admin/admin-schemas.js'
import { ErrorCode } from '../../core/error-codes.js'
import { quote } from '../../core/quote-value.js'
import { adminTools } from '../../transports/mcp/admin-tools.js'
import type { Connect } from '../../transports/mcp/tool-call.js'
import { DEFAULT_HOST, DEFAULT_PORT } from '../../transports/standalone/start-server.js'
import { readFlags } from '../argv.js'
import { unknownVariableWarnings } from '../env-warnings.js'
import { commandHelp, type Flag } from '../flags.js'
import { escapeControls } from '../terminal-text.js'
import { CliUsageError } from '../usage-error.js'

const DEFAULT_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`
/** An admin call that takes longer than this is given up: an assistant waits on every tool call. */
const CALL_TIMEOUT_MS = 30_000

const MCP_FLAGS: readonly Flag[] = [
  { name: 'url', env: '', value: '<server>', help: `The running simulator to drive: its origin, no path. Default ${DEFAULT_URL}.` },
  { name: 'help', env: '', boolean: true, help: 'Show this help and exit.' },
]

const usage = (problem: string) => new CliUsageError(`${problem} Run petstore-sim mcp --help for the options.`)

function mcpHelpText(): string {
  return commandHelp(
    'petstore-sim mcp [--url <server>]',
    [
      'A Model Context Protocol server on stdin and stdout, for coding assistants that start a command: a tool per',
      'admin operation (reset, addOrder, addFault, listRequests, ...) that drives the running simulator at --url',
      "through its admin API, and the service's specification and OpenAPI document as resources (docs/mcp.md).",
      'The admin token, when the server has one, comes from PETSTORE_SIM_ADMIN_TOKEN.',
      'One JSON-RPC message per line. Nothing but MCP messages goes to stdout; problems go to stderr.',
      'It ends when stdin closes (after answering what it was sent) or stdout does.',
      'Exit code: 0 when its input or output closed, 2 bad usage.',
    ],
    MCP_FLAGS,
    'Example (an assistant\'s config): { "command": "npx", "args": ["petstore-sim", "mcp", "--url", "http://127.0.0.1:4010"] }',
  )
}

/** The server's origin from --url: http or https, nothing else. */
function serverUrl(text: string | undefined): URL {
  let url: URL
  try {
    url = new URL(text ?? DEFAULT_URL)
  } catch {
    throw usage(`--url must be the simulator's address, such as ${DEFAULT_URL}; got ${JSON.stringify(text)}.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usage(`--url must be an http or https address, such as ${DEFAULT_URL}; got ${JSON.stringify(text)}.`)
  // The admin API lives at /__sim of the server's origin: a path would be dropped, silently.
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '')
    throw usage(`--url is the simulator's origin only, such as ${DEFAULT_URL} (its admin API is at /__sim); got ${JSON.stringify(text)}.`)
  return url
}

/** A refusal said for someone who configures this command, not who sends headers: the token, a server that is no simulator. */
function explained(error: AdminError, url: URL, token: string | undefined): AdminError {
  if (error.status === 401 && error.code === ErrorCode.Unauthorized)
    return new AdminError(
      401,
      error.code,
      token === undefined
        ? `The simulator at ${url.origin} needs its admin token: set PETSTORE_SIM_ADMIN_TOKEN in this MCP server's env (the assistant's config).`
        : `The simulator at ${url.origin} refused the admin token in PETSTORE_SIM_ADMIN_TOKEN: it is not the one the server started with.`,
    )
  if (error.code === '')
    return new AdminError(
      error.status,
      ErrorCode.NotFound,
      `${url.origin} answered ${error.message} without the simulator's Error body: is --url a Petstore Orders Simulator with its admin API on?`,
    )
  return error
}

/**
 * The 400 a server gives an X-Sim-Session that is no session id, in its words (sessions.ts): said here,
 * as the header cannot carry every such id as given (fetch refuses a line break or an emoji, and
 * trims spaces, which would act on another session), and an empty one would act on the default state.
 */
const badSession = (session: string) =>
  new AdminError(
    400,
    ErrorCode.InvalidRequest,
    `Invalid session id ${quote(session)}: use 1 to 128 letters, digits and . _ : - characters.`,
  )

/** fetch's own failures to reach the server: refused, no such host (a TypeError with the network's cause), or the timeout. */
const isUnanswered = (error: unknown): error is TypeError | DOMException =>
  (error instanceof TypeError && error.cause !== undefined) || (error instanceof DOMException && error.name === 'TimeoutError')

/** The admin API of the server at `url`: a server that does not answer is a refusal the assistant can read and act on. */
function connectTo(url: URL, token: string | undefined): Connect {
  return (session) => {
    if (session !== null && !v.is(SessionId, session)) {
      const refused = badSession(session)
      return clientOf(() => Promise.reject(refused))
    }
    const send = httpSend(url, { token, session: session ?? undefined, timeoutMs: CALL_TIMEOUT_MS })
    return clientOf(async (call) => {
      try {
        return await send(call)
      } catch (error) {
        if (error instanceof AdminError) throw explained(error, url, token)
        // Anything else (a request fetch would not build) is a failure of this command's own.
        if (!isUnanswered(error)) throw error
        const cause = error.cause instanceof Error ? error.cause.message : error.message
        throw new AdminError(
          503,
          ErrorCode.ServiceUnavailable,
          `The simulator at ${url.origin} did not answer (${cause}): start it (petstore-sim, or npm start) or point petstore-sim mcp --url at it.`,
        )
      }
    })
  }
}

export interface McpIo {
  stdin: Readable
  stdout: Writable
  stderr: (text: string) => void
  /** A file of the package, as text (the resources' files). */
  readFile: (file: string) => string
  version: string
}

/** `petstore-sim mcp`: serves MCP on stdio until stdin closes; returns the exit code. Bad usage is one line on stderr, exit 2. */
export async function mcpMain(argv: readonly string[], env: NodeJS.ProcessEnv, io: McpIo): Promise<number> {
  let url: URL
  const token = env['PETSTORE_SIM_ADMIN_TOKEN'] === '' ? undefined : env['PETSTORE_SIM_ADMIN_TOKEN']
  try {
    const { values } = readFlags(argv, MCP_FLAGS, usage)
    if (values['help'] === true) {
      io.stdout.write(`${mcpHelpText()}\n`)
      return 0
    }
    url = serverUrl(values['url'] as string | undefined)
    // A token no server takes (as --admin-token is checked) would fail every call; fetch could not even send some.
    if (token !== undefined && !isBearerToken(token))
      throw new CliUsageError(
        'PETSTORE_SIM_ADMIN_TOKEN must be one word of letters, digits and -._~+/ characters (it is sent as a bearer token).',
      )
  } catch (error) {
    io.stderr(`${escapeControls(error instanceof Error ? error.message : String(error))}\n`)
    return 2
  }
  // Loaded here only: the SDK is bundled apart, and the other commands never load it.
  const [{ createMcpServer }, { StdioServerTransport }] = await Promise.all([
    import('../../transports/mcp/mcp-server.js'),
    import('../../transports/mcp/mcp-sdk.js'),
  ])
  for (const line of unknownVariableWarnings(env)) io.stderr(`${line}\n`)
  const { server, settled } = createMcpServer({
    tools: adminTools(),
    connect: connectTo(url, token),
    readFile: io.readFile,
    version: io.version,
    report: (error, tool) =>
      io.stderr(
        `petstore-sim mcp: the tool ${tool} failed unexpectedly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      ),
  })
  let gone = false
  const closed = new Promise<void>((resolve) => {
    io.stdin.once('end', resolve)
    io.stdin.once('close', resolve)
    // The assistant went away (EPIPE): nobody is left to answer.
    io.stdout.on('error', () => {
      gone = true
      resolve()
    })
  })
  // What is no MCP message (a line that is not JSON, a batch): said on stderr, as stdout carries MCP only.
  server.onerror = (error) => {
    if (gone) return
    const reason = error.message.replace(/\s+/g, ' ').slice(0, 200)
    io.stderr(`petstore-sim mcp: a line that is no MCP message was left unanswered: ${escapeControls(reason)}\n`)
  }
  await server.connect(new StdioServerTransport(io.stdin, io.stdout))
  io.stderr(
    `petstore-sim mcp: serving MCP on stdio for the simulator at ${url.origin}${token === undefined ? '' : ' (with the admin token)'}.\n`,
  )
  await closed
  // Input that ends right after its last request (a script's pipe) still gets every answer.
  if (!gone) await settled()
  await new Promise((resolve) => setImmediate(resolve))
  await server.close()
  return 0
}
