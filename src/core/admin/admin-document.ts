// The admin API's OpenAPI document, made from the admin table (its operations) and the valibot
// schemas (its components), around what it is, who may call it, and the answers and headers many calls share.
import { type ConversionConfig, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { openApiDocument } from '../../contract/openapi-document.js'
import { CONVERSION, scenarioJsonSchema } from '../scenario/scenario-json-schema.js'
import type { AdminOperation, AnswerDoc, ErrorDoc, FieldDoc, HeaderDoc, SchemaRef } from './admin-operation.js'
import * as fields from './admin-fields.js'
import * as schemas from './admin-schemas.js'
import * as pact from './pact-schemas.js'
import * as scenario from './scenario-schemas.js'
import { ADMIN_OPERATIONS } from './admin-table.js'

const ADMIN_DOCUMENT_HEAD = {
  openapi: '3.1.0',
  info: {
    title: 'Petstore Orders Simulator admin API',
    version: '1.0.0',
    summary: "The simulator's own API under /__sim: scenarios, state, orders, clock, request journal, misbehaviour and sessions.",
    description:
      "The admin API of the Petstore Orders Simulator's standalone server (docs/server.md). It is not part of the simulated service: see openapi.json for that. Paths carry their /__sim prefix, so that GET /__sim (the JSON list of endpoints) and GET /__sim/ (the QA panel) stay apart. Every call acts on the session named by X-Sim-Session, or the default state without one (a W3C baggage header's sim-session member, which names the session of an API request, is not read here). JSON in and out; int64 ids beyond 2^53 are written as exact JSON integers. Every error is the Error body { code, message, status } with Content-Type application/json. Answers that no operation below describes: an unknown admin path gives 404 not_found (components/responses/NotFound); a known path with another method gives 405 method_not_allowed with an Allow header naming the documented methods (components/responses/MethodNotAllowed); HEAD is answered like GET without a body; OPTIONS is a CORS preflight answered 204 before any admin route. With the admin API turned off (--no-admin), every /__sim path answers 404 not_found.",
  },
  servers: [
    {
      url: '/',
      description:
        "The simulator's standalone server (npm start, petstore-sim, startSimulatorServer, createSimulatorApp). The paths carry the /__sim prefix.",
    },
  ],
  security: [{}, { adminToken: [] }],
  tags: [
    { name: 'discovery', description: 'What the admin API offers.' },
    { name: 'health', description: 'What probes and load balancers call: no token, any Host, also with the admin API off.' },
    { name: 'panel', description: 'The QA panel and the demo page: HTML and static files for a browser.' },
    { name: 'state', description: 'Scenarios, reset and the state served now.' },
    { name: 'orders', description: "Orders read and edited directly, bypassing the API's rules." },
    { name: 'clock', description: 'The simulated clock that drives the order lifecycle.' },
    { name: 'journal', description: 'The requests the simulated API answered.' },
    { name: 'controls', description: 'Misbehaviour on purpose: faults, latency, rate limit.' },
    { name: 'sessions', description: 'Separate states per X-Sim-Session.' },
    { name: 'coverage', description: "Which of the service's documented outcomes the requests met (docs/coverage.md)." },
    { name: 'pact', description: "Pact contracts from the requests a consumer suite sent, and the state changes of Pact's verifier." },
  ],
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }
const errorAnswer = (description: string) => ({ description, content: ERROR_CONTENT })

const ADMIN_COMPONENTS = {
  securitySchemes: {
    adminToken: {
      type: 'http',
      scheme: 'bearer',
      description:
        "The admin token the server was started with (--admin-token, PETSTORE_SIM_ADMIN_TOKEN, adminToken). A server without one needs none. The order API's keys do not open the admin API, nor the token the order API.",
    },
  },
  parameters: {
    SimSession: {
      name: 'X-Sim-Session',
      in: 'header',
      required: false,
      description:
        "Acts on this session, made on first use from the simulator's current scenario. Without it, the call acts on the default state. The admin API reads this header only, never the baggage header's sim-session member: a tool names sessions deliberately, and a test runner's trace baggage must not redirect its calls.",
      schema: { $ref: '#/components/schemas/SessionId' },
    },
    OrderId: {
      name: 'orderId',
      in: 'path',
      required: true,
      description: "The order's id. One that is not a decimal int64 is a 400 invalid_order_id.",
      schema: { type: 'integer', format: 'int64' },
    },
    StaticFile: { name: 'file', in: 'path', required: true, description: "The file's name.", schema: { type: 'string' } },
  },
  headers: {
    ContentDisposition: {
      description: 'The file name to save it under: attachment; filename="<name>.json".',
      required: true,
      schema: { type: 'string', pattern: '^attachment; filename="[a-z0-9][a-z0-9-]{0,63}\\.json"$' },
    },
    'WWW-Authenticate': { description: 'RFC 6750 challenge.', required: true, schema: { type: 'string', pattern: '^Bearer( |$)' } },
    Allow: { description: 'The methods the path takes.', required: true, schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' } },
    Location: { description: 'Where the resource lives.', required: true, schema: { type: 'string', pattern: '^/__sim' } },
    'Retry-After': { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
  },
  responses: {
    BadRequest: errorAnswer(
      'invalid_request: the X-Sim-Session header is not a session id (1 to 128 letters, digits and . _ : -), sessions are turned off, a query field is not valid or given twice, or the request path has a bad percent-encoding.',
    ),
    Unauthorized: {
      description: 'unauthorized: the server has an admin token and the request does not carry it as a bearer token.',
      headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
      content: ERROR_CONTENT,
    },
    Forbidden: errorAnswer(
      'forbidden_origin (a web page of another origin; --admin-origins lets one in) or forbidden_host (a Host header the server does not answer for; --allowed-hosts). Nothing was read or changed.',
    ),
    NotFound: errorAnswer('not_found: no admin endpoint or file at this path (and every /__sim path with the admin API turned off).'),
    MethodNotAllowed: {
      description:
        'method_not_allowed: the path exists, not with this method. Allow names the methods it takes. Not listed under the operations, since no documented operation answers it: every method a path does not document gets it.',
      headers: { Allow: { $ref: '#/components/headers/Allow' } },
      content: ERROR_CONTENT,
    },
    PayloadTooLarge: errorAnswer('payload_too_large: the body is larger than the server accepts (--body-limit, default 1 MiB).'),
    InvalidOrderId: errorAnswer('invalid_order_id: the path id is not a decimal int64; or invalid_request for the X-Sim-Session header.'),
    OrderNotFound: errorAnswer('order_not_found: no order has that id in this state.'),
    UnexpectedError: errorAnswer('Any other failure, such as 500 internal_error: always an Error body, never a stack trace.'),
  },
}

type Json = Record<string, unknown>
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` })

const definitions = { ...schemas, ...pact, ...scenario }
const named: Record<string, v.GenericSchema> = { ...definitions, ...fields }
const config: ConversionConfig = {
  ...CONVERSION,
  definitions,
  // ErrorBody is the order API's Error, put in as the admin API narrows it (fromOrderApi).
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId === 'ErrorBody' ? 'Error' : referenceId}`,
  // A schema's JSON Schema given as is (`openapi` metadata): it replaces what came before it in its pipe.
  overrideAction: ({ valibotAction }) => (valibotAction as { metadata?: { openapi?: Json } }).metadata?.openapi,
}
/** The JSON Schema of a schema the table names: `Name[]` an array of it. */
function jsonSchema(name: SchemaRef): Json {
  if (name.endsWith('[]')) return { type: 'array', items: jsonSchema(name.slice(0, -2) as SchemaRef) }
  const { $schema: _, $defs: __, ...rest } = toJsonSchema(named[name] as v.GenericSchema, config) as Json
  return rest
}

const withoutDescriptions = (properties: Record<string, Json>) =>
  Object.fromEntries(Object.entries(properties).map(([name, { description: _, ...rest }]) => [name, rest]))

/** The order API's Error and Order, as the admin API sends them: narrowed (closed, snake_case codes), the order with its status. */
function fromOrderApi() {
  const { Error: error, Order: order } = openApiDocument.components.schemas
  return {
    Error: {
      ...error,
      description: "The specification's Error object, as the simulated API sends it. status equals the HTTP status of the answer.",
      additionalProperties: false,
      properties: {
        code: { ...error.properties.code, pattern: '^[a-z][a-z0-9_]*$', description: 'Machine-readable error code (snake_case).' },
        message: { ...error.properties.message, minLength: 1, description: 'What failed, why, and what to do.' },
        status: { ...error.properties.status, minimum: 400, maximum: 599 },
      },
    },
    AdminOrder: {
      type: 'object',
      description: 'An order as the simulator holds it: id and status always; the other four absent when the order has none.',
      required: ['id', 'status'],
      additionalProperties: false,
      // The order API's types and formats; its descriptions are of the service's record, not of the simulator's.
      properties: { ...withoutDescriptions(order.properties), status: ref('schemas', 'OrderStatus') },
    },
  }
}

function header(doc: HeaderDoc): Json {
  return typeof doc === 'string'
    ? ref('headers', doc)
    : { description: doc.description, required: true, schema: { type: 'string', pattern: doc.pattern } }
}

function answer(doc: AnswerDoc): Json {
  const content: Json = {}
  if (doc.schema !== undefined) content['application/json'] = { schema: jsonSchema(doc.schema) }
  for (const media of doc.media ?? []) content[media] = { schema: { type: 'string' } }
  return {
    description: doc.description,
    ...(doc.headers === undefined
      ? {}
      : { headers: Object.fromEntries(Object.entries(doc.headers).map(([name, value]) => [name, header(value)])) }),
    ...(Object.keys(content).length === 0 ? {} : { content }),
  }
}

function error(doc: ErrorDoc): Json {
  if (doc === 'InvalidOrderId' || doc === 'OrderNotFound' || doc === 'NotFound') return ref('responses', doc)
  return answer({ schema: 'ErrorBody', ...(typeof doc === 'string' ? { description: doc } : doc) })
}

function parameter(name: string, where: 'path' | 'query', doc: FieldDoc | 'OrderId' | 'StaticFile'): Json {
  if (typeof doc === 'string') return ref('parameters', doc)
  const { schema, description, required } = doc
  return {
    name,
    in: where,
    required: where === 'path' || required === true,
    ...(description === undefined ? {} : { description }),
    schema: jsonSchema(schema),
  }
}

function responses(operation: AdminOperation): Json {
  const { errors = {}, page, probe } = operation
  const all: Json = { [operation.status]: answer(operation.answer) }
  for (const [status, doc] of Object.entries(operation.others ?? {})) all[status] = answer(doc)
  if (page !== true && probe !== true) {
    all['400'] = errors[400] === undefined ? ref('responses', 'BadRequest') : error(errors[400])
    all['401'] = ref('responses', 'Unauthorized')
  }
  // A probe's answer comes before the Host and Origin checks.
  if (probe !== true) all['403'] = ref('responses', 'Forbidden')
  for (const status of [404, 409, 503] as const) if (errors[status] !== undefined) all[status] = error(errors[status])
  if (operation.body !== undefined) all['413'] = ref('responses', 'PayloadTooLarge')
  all['default'] = ref('responses', 'UnexpectedError')
  return all
}

function operationObject(id: string, operation: AdminOperation): Json {
  const { tag, summary, description, page, probe, params = {}, query = {}, body } = operation
  const open = page === true || probe === true
  const parameters = [
    ...Object.entries(params).map(([name, doc]) => parameter(name, 'path', doc)),
    ...(open ? [] : [ref('parameters', 'SimSession')]),
    ...Object.entries(query).map(([name, doc]) => parameter(name, 'query', doc)),
  ]
  return {
    operationId: id,
    tags: [tag],
    summary,
    ...(description === undefined ? {} : { description }),
    ...(open ? { security: [{}] } : {}),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(body === undefined
      ? {}
      : { requestBody: { required: body.required, content: { 'application/json': { schema: jsonSchema(body.schema) } } } }),
    responses: responses(operation),
  }
}

function paths(): Record<string, Record<string, Json>> {
  const all: Record<string, Record<string, Json>> = {}
  for (const [id, operation] of Object.entries(ADMIN_OPERATIONS) as [string, AdminOperation][]) {
    const path = `/__sim${operation.path}`
    all[path] = { ...all[path], [operation.method.toLowerCase()]: operationObject(id, operation) }
  }
  return all
}

type Document = typeof ADMIN_DOCUMENT_HEAD & {
  paths: Record<string, Record<string, Json>>
  components: typeof ADMIN_COMPONENTS & { schemas: Record<string, Json> & ReturnType<typeof fromOrderApi> }
}
/** The admin document's type: its head and shared components spelled out, its paths and schemas as JSON. */
export interface AdminOpenApiDocument extends Document {}

/** `{"scenario"?, "seed"?}` for a body that is an object; nothing for another. */
function bodyShape(name: SchemaRef | undefined): string {
  const schema = name === undefined ? undefined : named[name]
  const object = (schema as { pipe?: v.GenericSchema[] } | undefined)?.pipe?.[0] ?? schema
  const fields = (object as { entries?: Record<string, { type: string }> } | undefined)?.entries
  if (fields === undefined) return ''
  return ` {${Object.entries(fields)
    .map(([name, field]) => `"${name}"${field.type === 'optional' ? '?' : ''}`)
    .join(', ')}}`
}

/** What `GET /__sim` lists: a line per operation, its body's fields when it takes an object. */
export function endpointLines(): string[] {
  const operations = Object.values(ADMIN_OPERATIONS) as AdminOperation[]
  return operations.map(
    (operation) => `${operation.method} /__sim${operation.path}${bodyShape(operation.body?.schema)} (${operation.summary})`,
  )
}

/** The scenario file's JSON Schema as components: ScenarioFile, and each of its $defs as Scenario<Name>. */
function scenarioComponents(): Record<string, Json> {
  const { $schema: _, $id: __, $defs, ...file } = scenarioJsonSchema()
  const name = (key: string) => `Scenario${key.charAt(0).toUpperCase()}${key.slice(1)}`
  const components = {
    ScenarioFile: {
      ...file,
      description:
        'A scenario file, as scenarios/scenario.schema.json describes it (the package exports it as petstore-orders-simulator/scenarios/scenario.schema.json).',
    },
    ...Object.fromEntries(Object.entries($defs as Json).map(([key, schema]) => [name(key), schema])),
  }
  return JSON.parse(JSON.stringify(components).replace(/"#\/\$defs\/(\w+)"/g, (_, key: string) => `"#/components/schemas/${name(key)}"`))
}

function buildAdminDocument(): AdminOpenApiDocument {
  const { ErrorBody: _, ...named } = toJsonSchemaDefs(definitions, config) as unknown as Record<string, Json>
  return {
    ...ADMIN_DOCUMENT_HEAD,
    paths: paths(),
    components: { ...ADMIN_COMPONENTS, schemas: { ...named, ...scenarioComponents(), ...fromOrderApi() } },
  }
}

const KEYS = ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components'] as const

/**
 * What `GET /__sim/openapi.json` serves and the package ships as `./admin-openapi.json`, made on first read
 * of any of its fields: a server that never serves it, or a test file that imports `./server` without reading it,
 * does not pay for making it.
 */
export const adminOpenApiDocument: AdminOpenApiDocument = (() => {
  let built: AdminOpenApiDocument | undefined
  const document = {} as AdminOpenApiDocument
  for (const key of KEYS) {
    Object.defineProperty(document, key, {
      enumerable: true,
      get: () => {
        built ??= buildAdminDocument()
        return built[key]
      },
    })
  }
  return document
})()
