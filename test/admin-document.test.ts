import { expect, test } from 'vitest'
import handWritten from '../src/contract/admin-openapi.json' with { type: 'json' }
import { buildAdminDocument } from '../src/core/admin/admin-document.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }
const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)
const canonical = (value: Json): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(',')}]`
    : isObject(value)
      ? `{${Object.keys(value)
          .sort()
          .map((key) => `${JSON.stringify(key)}:${canonical(value[key] as Json)}`)
          .join(',')}}`
      : JSON.stringify(value)

/**
 * A document's node as it means: every $ref replaced by what it names (its
 * siblings win), oneOf and anyOf alike (the alternatives here never overlap)
 * and unordered, `type: [a, b]` as alternatives, `required` unordered, and
 * what constrains nothing left out (`properties: {}`, a property `{}`,
 * `additionalProperties: {}`, `propertyNames: { type: string }`, `required: []`).
 */
function meaning(document: JsonObject, node: Json): Json {
  if (Array.isArray(node)) return node.map((item) => meaning(document, item))
  if (!isObject(node)) return node
  let object: JsonObject = node
  while (typeof object['$ref'] === 'string') {
    const { $ref, ...siblings } = object
    const target = ($ref as string)
      .slice(2)
      .split('/')
      .reduce<Json>((at, part) => (isObject(at) ? (at[part] as Json) : null), document)
    object = { ...(target as JsonObject), ...siblings }
  }
  const out: JsonObject = {}
  for (const [key, value] of Object.entries(object)) {
    if (key === 'oneOf' || key === 'anyOf') {
      const options = (value as Json[]).map((option) => meaning(document, option))
      out['anyOf'] = options.sort((a, b) => canonical(a).localeCompare(canonical(b)))
    } else if (key === 'type' && Array.isArray(value)) {
      out['anyOf'] = value.map((type) => ({ type })).sort((a, b) => canonical(a).localeCompare(canonical(b)))
    } else if (key === 'required' && Array.isArray(value)) {
      if (value.length > 0) out[key] = [...value].sort()
    } else if (key === 'properties' && isObject(value)) {
      const kept = Object.entries(value).filter(([, schema]) => !isObject(schema) || Object.keys(schema).length > 0)
      if (kept.length > 0) out[key] = Object.fromEntries(kept.map(([name, schema]) => [name, meaning(document, schema)]))
    } else if (key === 'additionalProperties' && isObject(value) && Object.keys(value).length === 0) {
      // Any value: no constraint.
    } else if (key === 'propertyNames' && canonical(value) === '{"type":"string"}') {
      // JSON's names are strings.
    } else {
      out[key] = meaning(document, value)
    }
  }
  if (Array.isArray(out['enum']) && out['type'] === undefined && out['enum'].every((item) => typeof item === 'string'))
    out['type'] = 'string'
  return out
}

/** The operations of a document as they mean: the path's parameters joined to each operation's, in no order. */
function operations(document: JsonObject): Record<string, Json> {
  const all: Record<string, Json> = {}
  for (const [path, item] of Object.entries(document['paths'] as JsonObject)) {
    const { parameters: shared = [], ...methods } = item as JsonObject
    for (const [method, operation] of Object.entries(methods)) {
      const { parameters = [], ...rest } = operation as JsonObject
      const joined = [...(shared as Json[]), ...(parameters as Json[])].map((parameter) => meaning(document, parameter))
      all[`${method.toUpperCase()} ${path}`] = {
        ...(meaning(document, rest) as JsonObject),
        parameters: joined.sort((a, b) => canonical(a).localeCompare(canonical(b))),
      }
    }
  }
  return all
}

const generated = operations(buildAdminDocument() as unknown as JsonObject)
const written = operations(handWritten as unknown as JsonObject)

test('the generated admin document has the operations of the hand-written one', () => {
  expect(Object.keys(generated).sort()).toEqual(Object.keys(written).sort())
})

test.each(Object.keys(written))('%s means in the generated admin document what it meant in the hand-written one', (operation) => {
  expect(generated[operation]).toEqual(written[operation])
})
