// The simulator as a Model Context Protocol server: the admin table's tools and
// the contract's resources, whichever transport carries it (stdio, or a POST of
// /__sim/mcp). The SDK's low-level Server, since the tools' schemas are JSON
// Schema from the admin document, not zod.
import { ErrorCode } from '../../core/error-codes.js'
import type { ToolDefinition, ToolPlan } from './admin-tools.js'
import { CONTRACT_RESOURCES } from './contract-resources.js'
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, Server } from './mcp-sdk.js'
import { callTool, type Connect, refusal, type ToolResult } from './tool-call.js'

/** JSON-RPC's codes for a resource that does not exist, as the MCP specification names it, and for bad params. */
const RESOURCE_NOT_FOUND = -32002
const INVALID_PARAMS = -32602

/** A JSON-RPC error the SDK sends as it is (its McpError would say "MCP error <code>:" before the message). */
const protocolError = (code: number, message: string) => Object.assign(new Error(message), { code })

const INSTRUCTIONS = [
  'Drives a Petstore Orders Simulator, a stand-in of the Petstore Orders Service that an app or a test suite calls.',
  'Put it into a state with reset (a named scenario: listScenarios lists them), addOrder, updateOrder, advanceClock;',
  'make it misbehave with addFault, setLatency, setRateLimit; read what the app sent with listRequests.',
  'Every tool takes "session" to act on one X-Sim-Session apart from the default state.',
  "Read the service's specification and OpenAPI document as resources.",
].join(' ')

export interface McpServerOptions {
  tools: { definitions: readonly ToolDefinition[]; plans: ReadonlyMap<string, ToolPlan> }
  connect: Connect
  /** The session a call acts on when it names none (the X-Sim-Session of an HTTP call). */
  session?: string | null
  /** A file of the package, as text (the resources' files). */
  readFile: (file: string) => string
  version: string
  /** Told of a tool call that failed unexpectedly (a simulator bug), which is answered as a 500 `internal_error` tool error. */
  report: (error: unknown, tool: string) => void
}

/** The SDK checks tool outputs only against an output schema, which no tool declares: no JSON Schema compiler is made. */
const NO_OUTPUT_SCHEMAS = {
  getValidator: () => () => ({ valid: true as const, data: undefined as never, errorMessage: undefined }),
}

/**
 * An MCP server over the admin API that `connect` reaches, not yet connected to a transport; `settled`
 * waits for every tool call it has taken (stdio finishes them when its input ends).
 */
export function createMcpServer(options: McpServerOptions): { server: Server; settled: () => Promise<void> } {
  const server = new Server(
    { name: 'petstore-orders-simulator', title: 'Petstore Orders Simulator', version: options.version },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: NO_OUTPUT_SCHEMAS },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...options.tools.definitions] }))
  // One call at a time, in the order they came: a reset piped before a list is done before it.
  let previous: Promise<unknown> = Promise.resolve()
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
    const plan = options.tools.plans.get(params.name)
    // MCP's rules make an unknown tool a protocol error, not a tool's result.
    if (plan === undefined) throw protocolError(INVALID_PARAMS, `No tool is named ${JSON.stringify(params.name)}: tools/list lists them.`)
    const run = () => callTool(plan, options.connect, params.arguments, options.session ?? null)
    const call = previous.then(run, run).catch((error: unknown): ToolResult => {
      options.report(error, params.name)
      return refusal(500, ErrorCode.InternalError, 'The simulator failed unexpectedly; its log has the details.')
    })
    previous = call
    return call
  })
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: CONTRACT_RESOURCES.map(({ file: _, ...resource }) => resource),
  }))
  server.setRequestHandler(ReadResourceRequestSchema, ({ params }) => {
    const resource = CONTRACT_RESOURCES.find(({ uri }) => uri === params.uri)
    if (resource === undefined)
      throw protocolError(RESOURCE_NOT_FOUND, `No resource has the URI ${JSON.stringify(params.uri)}: resources/list lists them.`)
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: options.readFile(resource.file) }] }
  })
  // The calls are chained: the last one settled, all have, unless another came meanwhile.
  const settled = async () => {
    let last: Promise<unknown>
    do {
      last = previous
      await last
    } while (last !== previous)
  }
  return { server, settled }
}
