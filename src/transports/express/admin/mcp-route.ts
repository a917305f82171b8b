import type { Request, RequestHandler } from 'express'
import { inProcessAdminClient } from '../../../core/admin/in-process-client.js'
import type { ScenarioSource } from '../../../core/admin/scenario-catalog.js'
import { invalidRequest } from '../../../core/api-error.js'
import type { ErrorReporter } from '../../../core/dispatch/error-reporter.js'
import type { SimulatorCore } from '../../../core/simulator/types.js'
import type { McpServerOptions } from '../../mcp/mcp-server.js'
import { packageFile, packageVersion } from '../../node/package-root.js'
import { readJson } from './admin-json.js'

const USAGE = 'POST /__sim/mcp takes one JSON-RPC message of the Model Context Protocol (docs/mcp.md).'

/** The message a POST carries, read as every admin body is (bounded, exact: an id past 2^53 reaches the tool whole). */
function messageOf(req: Request): unknown {
  const message = readJson(req, USAGE)
  if (message === undefined) throw invalidRequest(`The request has no body. ${USAGE}`)
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
  // What depends on the package only, made on the first call: the tools from the admin document, the version.
  let made: Pick<McpServerOptions, 'tools' | 'version'> | undefined
  return (req, res, next) => {
    // A refused message goes to the admin app's error handler (a 400 Error body) before the SDK is loaded.
    Promise.resolve(req)
      .then(messageOf)
      .then(async (message) => {
        const { answerMcpPost, adminTools } = await import('../../mcp/mcp-http.js')
        made ??= { tools: adminTools(), version: packageVersion() }
        return answerMcpPost(req.headers, message, {
          ...made,
          connect: (session) => inProcessAdminClient(sim, session, scenarios),
          session: res.locals['sessionId'] as string | null,
          readFile: packageFile,
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
