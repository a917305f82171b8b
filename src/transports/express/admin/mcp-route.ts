import { readFileSync } from 'node:fs'
import type { RequestHandler } from 'express'
import { inProcessAdminClient } from '../../../core/admin/in-process-client.js'
import type { ScenarioSource } from '../../../core/admin/scenario-catalog.js'
import { invalidRequest } from '../../../core/api-error.js'
import { parseExactJson } from '../../../core/exact-json.js'
import type { ErrorReporter } from '../../../core/dispatch/error-reporter.js'
import type { SimulatorCore } from '../../../core/simulator/types.js'
import type { McpServerOptions } from '../../mcp/mcp-server.js'
import { sendError } from '../../node/node-edge.js'
import { packageRoot, packageVersion } from '../../node/package-root.js'
import { jsonTooDeep, MAX_JSON_DEPTH } from './json-depth.js'

const USAGE = 'POST /__sim/mcp takes one JSON-RPC message of the Model Context Protocol (docs/mcp.md).'

/** The message a POST carries, bounded in size and depth as every admin body. */
function messageOf(body: unknown): unknown {
  const text = Buffer.isBuffer(body) ? body.toString('utf8').trim() : ''
  if (text === '') throw invalidRequest(`The request has no body. ${USAGE}`)
  if (jsonTooDeep(text)) throw invalidRequest(`The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`)
  let message: unknown
  try {
    // Exact, as every admin body: an id past 2^53 reaches the tool whole.
    message = parseExactJson(text)
  } catch {
    throw invalidRequest(`The request body is not valid JSON. ${USAGE}`)
  }
  // A batch would answer many tool calls, each as large as a state, in one body: MCP dropped batches in 2025-06-18.
  if (Array.isArray(message)) throw invalidRequest(`The request body is a batch. ${USAGE}`)
  return message
}

/**
 * `POST /__sim/mcp`: the admin table's tools over MCP's Streamable HTTP, behind
 * the admin API's own guards (Host, Origin, token). The SDK is loaded on the
 * first call, so a server that never answers one does not load it.
 */
export function mcpRoute(sim: SimulatorCore, scenarios: ScenarioSource, report: ErrorReporter): RequestHandler {
  let tools: McpServerOptions['tools'] | undefined
  return (req, res, next) => {
    let message: unknown
    try {
      message = messageOf(req.body)
    } catch (error) {
      sendError(res, error)
      return
    }
    import('../../mcp/mcp-http.js')
      .then(({ answerMcpPost, adminTools }) => {
        tools ??= adminTools()
        return answerMcpPost(req.headers, message, {
          tools,
          connect: (session) => inProcessAdminClient(sim, session, scenarios),
          session: res.locals['sessionId'] as string | null,
          readFile: (file) => readFileSync(new URL(file, packageRoot()), 'utf8'),
          version: packageVersion(),
          report: (error, tool) => report(error, { method: 'POST', target: `${req.originalUrl} (tool ${tool})` }),
        })
      })
      .then(({ status, headers, body }) => {
        if (body === '') res.status(status).end()
        else res.status(status).set(headers).send(body)
      })
      .catch(next)
  }
}
