import type { ValidateFunction } from 'ajv/dist/2020.js'
import { adminOpenApiDocument as adminDocument } from '../../src/core/admin/admin-document.js'
import { createAjv } from './ajv.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

const DOCUMENT_NAME = 'admin-openapi.json'
// Not strict: the document's non-schema keywords (openapi, paths, ...) sit around the schemas.
const ajv = createAjv({ strict: false })
// A copy: the document's fields are made on first read, and ajv keeps what it is given.
ajv.addSchema(structuredClone(adminDocument), DOCUMENT_NAME)
const validators = new Map<string, ValidateFunction>()
const paths = (adminDocument as unknown as { paths: Record<string, Record<string, unknown>> }).paths
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

const counts = { checked: 0, byTransport: {} as Record<string, number>, byAnswer: {} as Record<string, number> }

/** Counts one answer the test support checked (`fetch` through the setup file, `raw` through raw-http's `send`). */
export function countCheck(method: string, pathname: string, status: number, transport: 'fetch' | 'raw'): void {
  counts.checked++
  counts.byTransport[transport] = (counts.byTransport[transport] ?? 0) + 1
  const answer = `${method.toUpperCase()} ${findAdminPath(pathname) ?? pathname} ${status}`
  counts.byAnswer[answer] = (counts.byAnswer[answer] ?? 0) + 1
}

/** What `countCheck` counted in this test file. */
export function checkCounts(): Readonly<typeof counts> {
  return counts
}

function pointerFor(path: readonly string[]): string {
  return path.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')
}

function validatorAt(path: readonly string[]): ValidateFunction {
  const ref = `${DOCUMENT_NAME}#/${pointerFor(path)}`
  let validate = validators.get(ref)
  if (validate === undefined) {
    validate = ajv.compile({ $ref: ref })
    validators.set(ref, validate)
  }
  return validate
}

function isObject(node: Json | undefined): node is JsonObject {
  return node !== null && typeof node === 'object' && !Array.isArray(node)
}

/** The object at `path`, following `$ref`s; returns where it really lives. */
function resolve(path: readonly string[]): { node: JsonObject; path: string[] } {
  let node: Json | undefined = adminDocument as unknown as Json
  for (const part of path) node = isObject(node) ? node[part] : undefined
  if (!isObject(node)) throw new Error(`${DOCUMENT_NAME} has no object at #/${pointerFor(path)}`)
  const ref = node['$ref']
  if (typeof ref !== 'string') return { node, path: [...path] }
  return resolve(
    ref
      .replace(/^#\//, '')
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~')),
  )
}

const templates = Object.keys(paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  literal: !template.includes('{'),
}))

/**
 * The document's path template for a request path (query ignored): a literal
 * path first, then a templated one; `/__sim/state/` is `/__sim/state`, as the
 * router's non-strict routing has it, but `/__sim/` (the panel) is not `/__sim`.
 */
export function findAdminPath(requestPath: string): string | undefined {
  const path = requestPath.split('?')[0] ?? ''
  const match = (candidate: string) =>
    templates.find(({ literal, template }) => literal && template === candidate) ??
    templates.find(({ literal, pattern }) => !literal && pattern.test(candidate))
  const found = match(path) ?? (path.length > 1 && path.endsWith('/') ? match(path.slice(0, -1)) : undefined)
  return found?.template
}

/** The methods the document gives a path, as an Allow header lists them. */
export function documentedMethods(template: string): string[] {
  return Object.keys(paths[template] ?? {})
    .filter((key) => METHODS.includes(key))
    .map((method) => method.toUpperCase())
}

/** The OpenAPI operation a request belongs to, if any; HEAD is answered as GET. */
export function findAdminOperation(method: string, requestPath: string): { template: string; method: string } | undefined {
  const template = findAdminPath(requestPath)
  const key = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()
  return template !== undefined && paths[template]?.[key] !== undefined ? { template, method: key } : undefined
}

export interface CapturedAdminResponse {
  status: number
  headers: Headers
  /** The body; `undefined` when it was not read (HTML, scripts, styles, an event stream: their bodies are not checked). */
  text: string | undefined
}

function mediaTypeOf(headers: Headers): string {
  return (headers.get('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

/** Whether the checker needs a response's body: JSON, or none at all (which must then be empty). */
export function bodyNeeded(method: string, headers: Headers): boolean {
  const type = mediaTypeOf(headers)
  return method.toUpperCase() !== 'HEAD' && (type === '' || type === 'application/json')
}

/** The problems of the headers a response object of the document requires or constrains. */
function headerProblems(responsePath: readonly string[], responseObject: JsonObject, headers: Headers): string[] {
  const problems: string[] = []
  const declared = responseObject['headers']
  if (!isObject(declared)) return problems
  for (const name of Object.keys(declared)) {
    const { node: header, path: headerPath } = resolve([...responsePath, 'headers', name])
    const value = headers.get(name)
    if (value === null) {
      if (header['required'] === true) problems.push(`header ${name} is required`)
      continue
    }
    if (header['schema'] === undefined) continue
    const validate = validatorAt([...headerPath, 'schema'])
    if (!validate(value)) problems.push(`header ${name} ${JSON.stringify(value)}: ${ajv.errorsText(validate.errors, { dataVar: name })}`)
  }
  return problems
}

/** The problems of an answer against one response object (by its path in the document). */
function responseProblems(responsePath: readonly string[], method: string, response: CapturedAdminResponse): string[] {
  const { node: responseObject, path: resolvedPath } = resolve(responsePath)
  const problems = headerProblems(resolvedPath, responseObject, response.headers)
  const content = responseObject['content']
  if (!isObject(content)) {
    if (response.text !== undefined && response.text !== '')
      problems.push(`no body is documented, got ${JSON.stringify(response.text.slice(0, 80))}`)
    return problems
  }
  const type = mediaTypeOf(response.headers)
  if (!(type in content)) {
    problems.push(`Content-Type ${JSON.stringify(type)} is not one of the documented ${Object.keys(content).join(', ')}`)
    return problems
  }
  if (type !== 'application/json' || method.toUpperCase() === 'HEAD') return problems
  if (response.text === undefined) return [...problems, 'the JSON body was not read, so it cannot be checked']
  let body: unknown
  try {
    body = JSON.parse(response.text)
  } catch {
    return [...problems, `the body is not JSON: ${JSON.stringify(response.text.slice(0, 80))}`]
  }
  const validate = validatorAt([...resolvedPath, 'content', type, 'schema'])
  if (!validate(body)) problems.push(ajv.errorsText(validate.errors, { dataVar: 'body' }))
  // The spec's Error object carries the answer's own status.
  if (response.status >= 400 && isObject(body as Json) && (body as JsonObject)['status'] !== response.status) {
    problems.push(`body.status ${JSON.stringify((body as JsonObject)['status'])} is not the HTTP status`)
  }
  return problems
}

/** The problems of an answer to a method or path the document does not list: a 404 or 405 Error, or a CORS preflight. */
function undocumentedProblems(method: string, requestPath: string, response: CapturedAdminResponse): string[] {
  if (method.toUpperCase() === 'OPTIONS' && response.status === 204) return []
  if (response.status < 400) return [`answered ${response.status}, but the document has no ${method.toUpperCase()} operation at this path`]
  if (response.status !== 405) return responseProblems(['components', 'responses', 'NotFound'], method, response)
  const problems = responseProblems(['components', 'responses', 'MethodNotAllowed'], method, response)
  const template = findAdminPath(requestPath)
  const allow = response.headers.get('Allow')
  const documented = template === undefined ? [] : documentedMethods(template)
  if (template === undefined) problems.push('405 on a path the document does not have')
  else if (allow !== null && [...allow.split(/,\s*/)].sort().join(', ') !== [...documented].sort().join(', ')) {
    problems.push(`Allow ${JSON.stringify(allow)} is not the documented methods of ${template}: ${documented.join(', ')}`)
  }
  return problems
}

/**
 * What is wrong with an admin answer by the admin OpenAPI document, or `[]`:
 * a documented status (or `default`), a documented media type, a JSON body
 * that validates against its schema (an Error's `status` equal to the
 * answer's), every required header. An answer to a method or path the
 * document does not list must be its 404 or 405 Error (Allow naming the
 * documented methods), or a 204 CORS preflight.
 */
export function adminResponseProblems(method: string, requestPath: string, response: CapturedAdminResponse): string[] {
  const operation = findAdminOperation(method, requestPath)
  if (operation === undefined) return undocumentedProblems(method, requestPath, response)
  const responsesPath = ['paths', operation.template, operation.method, 'responses']
  const documented = resolve(responsesPath).node
  const status = String(response.status)
  const key = status in documented ? status : 'default'
  if (documented[key] === undefined) return [`status ${status} is not documented`]
  if (key === 'default' && response.status < 400) return [`status ${status} is not documented (default describes errors only)`]
  if (response.status === 405) return [`405 to ${method.toUpperCase()}, a method the document lists for ${operation.template}`]
  return responseProblems([...responsesPath, key], method, response)
}

/**
 * Asserts that an admin answer is one the admin OpenAPI document allows for
 * this request (see `adminResponseProblems`); the error names the request,
 * the status and every problem.
 */
export function expectAdminResponseMatchesContract(method: string, requestPath: string, response: CapturedAdminResponse): void {
  const problems = adminResponseProblems(method, requestPath, response)
  if (problems.length > 0) {
    throw new Error(
      `${method.toUpperCase()} ${requestPath} ${response.status} does not match the admin document (admin-openapi.json): ${problems.join('; ')}`,
    )
  }
}
