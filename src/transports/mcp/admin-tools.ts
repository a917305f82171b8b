// The admin table as Model Context Protocol tools: one tool per operation that
// reads or changes the simulator's state, its input schema made from the admin
// document's path, query and body schemas. Nothing here names an operation:
// a new one in the table is a new tool.
import { adminOpenApiDocument } from '../../core/admin/admin-document.js'
import type { AdminOperation } from '../../core/admin/admin-operation.js'
import { ADMIN_OPERATIONS, isCallable } from '../../core/admin/admin-table.js'

type Json = Record<string, unknown>

/** What `tools/list` gives of a tool. */
export interface ToolDefinition {
  name: string
  description: string
  /** Hints for the assistant's user, from the HTTP method: a GET reads only, a PUT or DELETE may be repeated. */
  annotations: { readOnlyHint: boolean; idempotentHint?: true; openWorldHint: false }
  inputSchema: { type: 'object'; properties: Record<string, Json>; required?: string[]; additionalProperties: false; $defs?: Json }
}

/** Where each argument of a tool goes in the admin call. */
export interface ToolPlan {
  name: string
  params: readonly string[]
  query: readonly string[]
  /** Where the body comes from: nowhere; its fields, each an argument; or one argument, for a body that is no object. */
  body:
    | { from: 'none' }
    | { from: 'fields'; fields: readonly string[]; required: boolean }
    | { from: 'argument'; argument: string; required: boolean }
}

/** The argument every tool takes: the session it acts on. */
export const SESSION_ARGUMENT = 'session'

/** The document's node at a `#/components/...` reference. */
function resolved(node: Json): Json {
  const ref = node['$ref']
  if (typeof ref !== 'string') return node
  let at: unknown = adminOpenApiDocument
  for (const key of ref.slice(2).split('/')) at = (at as Json)[key]
  return at as Json
}

/** A schema with its component references pointing into the tool's own `$defs`, and the components it reaches added there. */
function inlined(schema: unknown, defs: Json): Json {
  const text = JSON.stringify(schema)
  const components = adminOpenApiDocument.components.schemas as Json
  for (const match of text.matchAll(/"#\/components\/schemas\/(\w+)"/g)) {
    const name = match[1] as string
    if (name in defs) continue
    defs[name] = {}
    defs[name] = inlined(components[name], defs)
  }
  return JSON.parse(text.replace(/"#\/components\/schemas\/(\w+)"/g, '"#/$defs/$1"')) as Json
}

/** An int64 in a path or a query, where it is text anyway: also as a decimal string, which keeps every digit past 2^53. */
function widened(schema: Json): Json {
  if (schema['format'] !== 'int64') return schema
  const { description, ...number } = schema
  return {
    anyOf: [number, { type: 'string', pattern: '^\\s*[+-]?[0-9]+\\s*$' }],
    ...(description === undefined ? {} : { description }),
  }
}

interface Parameter {
  name: string
  in: string
  required?: boolean
  description?: string
  schema: Json
}

/** What the method says of a call: none touches anything beyond the simulator (no open world). */
function annotationsOf(method: string): ToolDefinition['annotations'] {
  const idempotent = method === 'PUT' || method === 'DELETE'
  return { readOnlyHint: method === 'GET', ...(idempotent ? { idempotentHint: true as const } : {}), openWorldHint: false }
}

/** One tool and its plan, from the operation's entry in the admin document. */
function toolOf(name: string, operation: AdminOperation): { definition: ToolDefinition; plan: ToolPlan } {
  const documented = adminOpenApiDocument.paths[`/__sim${operation.path}`]?.[operation.method.toLowerCase()] as Json
  const defs: Json = {}
  const properties: Record<string, Json> = {}
  const required: string[] = []
  const add = (key: string, schema: Json, isRequired: boolean) => {
    if (key in properties) throw new Error(`The tool ${name} has two arguments named ${key}: rename one in the admin table.`)
    properties[key] = schema
    if (isRequired) required.push(key)
  }
  const parameters = ((documented['parameters'] ?? []) as Json[]).map((parameter) => resolved(parameter) as unknown as Parameter)
  const params: string[] = []
  const query: string[] = []
  for (const parameter of parameters) {
    if (parameter.in === 'header') continue
    const description = parameter.description === undefined ? {} : { description: parameter.description }
    add(
      parameter.name,
      { ...widened(inlined(parameter.schema, defs)), ...description },
      parameter.in === 'path' || parameter.required === true,
    )
    ;(parameter.in === 'path' ? params : query).push(parameter.name)
  }
  const requestBody = documented['requestBody'] as { required: boolean; content: Record<string, { schema: Json }> } | undefined
  let body: ToolPlan['body'] = { from: 'none' }
  if (requestBody !== undefined) {
    const bodySchema = requestBody.content['application/json']?.schema ?? {}
    const object = resolved(bodySchema)
    const fields = object['type'] === 'object' ? (object['properties'] as Record<string, Json> | undefined) : undefined
    const { required } = requestBody
    if (fields === undefined) {
      // Named after its schema (LatencyInput: latency, RateLimitInput: rateLimit), as the operation's messages name it.
      const schemaName = (operation.body?.schema ?? 'body').replace(/Input$/, '')
      const argument = `${schemaName.charAt(0).toLowerCase()}${schemaName.slice(1)}`
      add(argument, { ...inlined(bodySchema, defs), description: operation.body?.hint ?? String(object['description'] ?? '') }, required)
      body = { from: 'argument', argument, required }
    } else {
      const needed = required ? ((object['required'] ?? []) as string[]) : []
      for (const field of Object.keys(fields)) add(field, inlined(fields[field], defs), needed.includes(field))
      body = { from: 'fields', fields: Object.keys(fields), required }
    }
  }
  add(
    SESSION_ARGUMENT,
    {
      ...inlined({ $ref: '#/components/schemas/SessionId' }, defs),
      description: 'The session to act on (what X-Sim-Session names over HTTP); without it, the default state.',
    },
    false,
  )
  const inputSchema: ToolDefinition['inputSchema'] = {
    type: 'object',
    properties,
    ...(required.length === 0 ? {} : { required }),
    additionalProperties: false,
    ...(Object.keys(defs).length === 0 ? {} : { $defs: defs }),
  }
  return {
    definition: { name, description: operation.summary, inputSchema, annotations: annotationsOf(operation.method) },
    plan: { name, params, query, body },
  }
}

/** Every tool, in the table's order, with the plan its calls follow. */
export function adminTools(): { definitions: ToolDefinition[]; plans: Map<string, ToolPlan> } {
  // Those the table runs itself and the admin client can call: not files, pages, probes, the event stream, MCP's own endpoint.
  const tools = (Object.entries(ADMIN_OPERATIONS) as [string, AdminOperation][])
    .filter(([, operation]) => operation.run !== undefined && isCallable(operation) && operation.probe !== true)
    .map(([name, operation]) => toolOf(name, operation))
  return { definitions: tools.map(({ definition }) => definition), plans: new Map(tools.map(({ plan }) => [plan.name, plan])) }
}
