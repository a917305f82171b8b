import type { IncomingHttpHeaders } from 'node:http'
import { ErrorCode } from '../../core/error-codes.js'
import { WebStandardStreamableHTTPServerTransport } from './mcp-sdk.js'
import { createMcpServer, type McpServerOptions } from './mcp-server.js'

export { adminTools } from './admin-tools.js'

/** An answer to write: its status, headers and body text (none for a 202). */
export interface McpAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * What MCP's transport refuses (an Accept without both media types, another Content-Type, no JSON-RPC message,
 * an unknown MCP-Protocol-Version) as the Error body every other admin refusal carries, with the SDK's reason:
 * 400, the status MCP's transport rules give for input a server cannot accept (the SDK says 406 or 415 for
 * some, which the admin document would otherwise have to list for this one path).
 */
function refusal(status: number, text: string): McpAnswer {
  let message = `MCP refused the request (HTTP ${status}).`
  try {
    const said = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message
    if (typeof said === 'string') message = `${said} (docs/mcp.md)`
  } catch {
    // Not JSON: the status says it.
  }
  const body = { code: ErrorCode.InvalidRequest, message, status: 400 }
  return { status: 400, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }
}

/**
 * Answers one POST of MCP's Streamable HTTP transport, stateless: a server and
 * a transport for this request alone, a JSON answer (no event stream), so that
 * any replica can answer any call and nothing outlives the request.
 */
export async function answerMcpPost(headers: IncomingHttpHeaders, message: unknown, options: McpServerOptions): Promise<McpAnswer> {
  const { server } = createMcpServer(options)
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  try {
    await server.connect(transport)
    // Node has joined a repeated header already; only set-cookie stays a list, which MCP does not read.
    const fields = Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, String(value)] as [string, string]],
    )
    const request = new Request('http://simulator/__sim/mcp', { method: 'POST', headers: fields })
    const response = await transport.handleRequest(request, { parsedBody: message })
    const body = await response.text()
    if (response.status >= 500) throw new Error(`The MCP server failed: ${body}`)
    if (response.status >= 400) return refusal(response.status, body)
    const type = response.headers.get('Content-Type')
    return { status: response.status, headers: type === null ? {} : { 'Content-Type': type }, body }
  } finally {
    await server.close()
  }
}
