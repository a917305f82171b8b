import { type ConversionConfig, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { openApiDocument } from '../../contract/openapi-document.js'
import type { AdminOperation, AnswerDoc, ErrorDoc, FieldDoc, HeaderDoc, SchemaRef } from './admin-operation.js'
import * as fields from './admin-fields.js'
import * as schemas from './admin-schemas.js'
import * as pact from './pact-schemas.js'
import * as scenario from './scenario-schemas.js'
import { ADMIN_OPERATIONS } from './admin-table.js'
import { ADMIN_COMPONENTS, ADMIN_DOCUMENT_HEAD } from './admin-document-parts.js'

type Json = Record<string, unknown>
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` })

const definitions = { ...schemas, ...pact, ...scenario }
const named: Record<string, v.GenericSchema> = { ...definitions, ...fields }
const config: ConversionConfig = {
  target: 'draft-2020-12',
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
  const { description, headers } = typeof doc === 'string' ? { description: doc, headers: undefined } : doc
  return answer({ description, schema: 'ErrorBody', ...(headers === undefined ? {} : { headers }) })
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

/**
 * The admin API's OpenAPI 3.1 document, made from the admin table: what
 * `GET /__sim/openapi.json` serves and the package ships as `./admin-openapi.json`.
 */
function buildAdminDocument(): AdminOpenApiDocument {
  const { ErrorBody: _, ...named } = toJsonSchemaDefs(definitions, config) as unknown as Record<string, Json>
  return {
    ...ADMIN_DOCUMENT_HEAD,
    paths: paths(),
    components: { ...ADMIN_COMPONENTS, schemas: { ...named, ...fromOrderApi() } },
  }
}

const KEYS = ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components'] as const

/**
 * The admin document, made on first read of any of its fields: a server that
 * never serves it, or a test file that imports `./server` without reading it,
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
