import type { ValidateFunction } from 'ajv/dist/2020.js'
import { expect } from 'vitest'
import openApiDocument from '../../src/contract/openapi.json' with { type: 'json' }
import { createAjv } from './ajv.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

// Not strict: the document's non-schema keywords (openapi, paths, ...) sit around the schemas.
const ajv = createAjv({ strict: false })
ajv.addSchema(openApiDocument, 'openapi.json')
const validators = new Map<string, ValidateFunction>()

function pointerFor(path: string[]): string {
  return path.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')
}

function validatorAt(path: string[]): ValidateFunction {
  const ref = `openapi.json#/${pointerFor(path)}`
  let validate = validators.get(ref)
  if (validate === undefined) {
    validate = ajv.compile({ $ref: ref })
    validators.set(ref, validate)
  }
  return validate
}

function nodeAt(path: readonly string[]): Json | undefined {
  let node: Json | undefined = openApiDocument as unknown as Json
  for (const part of path) {
    node = node !== null && typeof node === 'object' && !Array.isArray(node) ? node[part] : undefined
  }
  return node
}

/** The object at `path`, following `$ref`s; returns where it really lives. */
function resolve(path: readonly string[]): { node: JsonObject; path: string[] } {
  const node = nodeAt(path)
  if (node === null || typeof node !== 'object' || Array.isArray(node)) {
    throw new Error(`Expected an object at #/${pointerFor([...path])}`)
  }
  const ref = node['$ref']
  if (typeof ref === 'string') {
    return resolve(
      ref
        .replace(/^#\//, '')
        .split('/')
        .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~')),
    )
  }
  return { node, path: [...path] }
}

/** The OpenAPI path template and method a request URL path (below the base) belongs to, if any. */
export function findOperation(method: string, apiPath: string): { template: string; method: string } | undefined {
  const paths = (openApiDocument as unknown as { paths: Record<string, Record<string, unknown>> }).paths
  const pathOnly = apiPath.split('?')[0] ?? ''
  for (const template of Object.keys(paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`)
    if (pattern.test(pathOnly) && paths[template]?.[method.toLowerCase()] !== undefined) {
      return { template, method: method.toLowerCase() }
    }
  }
  return undefined
}

export interface CapturedResponse {
  status: number
  headers: Headers
  text: string
}

/**
 * Asserts that a response is one the OpenAPI document allows for this
 * operation: a documented status (or `default`), the documented media type,
 * a body that validates against its schema, and every required header.
 */
export function expectResponseMatchesContract(method: string, apiPath: string, response: CapturedResponse): void {
  const operation = findOperation(method, apiPath)
  expect(operation, `${method} ${apiPath} is not a documented operation`).toBeDefined()
  if (operation === undefined) return
  const responsesPath = ['paths', operation.template, operation.method, 'responses']
  const documented = resolve(responsesPath).node
  const statusKey = String(response.status) in documented ? String(response.status) : 'default'
  expect(documented[statusKey], `${method} ${apiPath}: status ${response.status} is not documented`).toBeDefined()
  const { node: responseObject, path: responsePath } = resolve([...responsesPath, statusKey])

  const headers = responseObject['headers']
  if (headers !== undefined && headers !== null && typeof headers === 'object' && !Array.isArray(headers)) {
    for (const name of Object.keys(headers)) {
      const { node: header, path: headerPath } = resolve([...responsePath, 'headers', name])
      const value = response.headers.get(name)
      if (header['required'] === true) {
        expect(value, `${method} ${apiPath} ${response.status}: header ${name} is required`).not.toBeNull()
      }
      if (value !== null && header['schema'] !== undefined) {
        const validate = validatorAt([...headerPath, 'schema'])
        expect(validate(value), `${method} ${apiPath} ${response.status}: header ${name}: ${ajv.errorsText(validate.errors)}`).toBe(true)
      }
    }
  }

  const content = responseObject['content']
  if (content === undefined) {
    expect(response.text, `${method} ${apiPath} ${response.status}: no body is documented`).toBe('')
    return
  }
  const mediaTypes = Object.keys(content as JsonObject)
  const contentType = (response.headers.get('Content-Type') ?? '').split(';')[0]?.trim()
  expect(mediaTypes, `${method} ${apiPath} ${response.status}: Content-Type ${contentType}`).toContain(contentType)
  const validate = validatorAt([...responsePath, 'content', contentType ?? '', 'schema'])
  const body: unknown = JSON.parse(response.text)
  expect(validate(body), `${method} ${apiPath} ${response.status}: ${ajv.errorsText(validate.errors)}`).toBe(true)
}

/** Validates a value against a JSON Schema in the OpenAPI document, e.g. `components/schemas/Order`. */
export function matchesSchema(pointer: string, value: unknown): boolean {
  return validatorAt(pointer.split('/'))(value)
}
