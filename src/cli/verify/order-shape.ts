import { openApiDocument } from '../../contract/openapi-document.js'
import { isDateTime } from '../../core/scenario/date-time.js'

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

interface PropertySchema {
  type?: string
  format?: string
}

/** Whether one value fits one property of the OpenAPI document's Order schema. */
function fits(value: unknown, schema: PropertySchema): boolean {
  switch (schema.type) {
    case 'integer': {
      const integer = typeof value === 'bigint' ? value : typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : null
      return integer !== null && (schema.format !== 'int64' || (integer >= INT64_MIN && integer <= INT64_MAX))
    }
    case 'string':
      return typeof value === 'string' && (schema.format !== 'date-time' || isDateTime(value))
    case 'boolean':
      return typeof value === 'boolean'
    default:
      return true
  }
}

/**
 * The first way an item of a list breaks the OpenAPI `Order` schema ("item 3:
 * quantity must be integer"), or null when every item is valid. Read from the
 * document, so the check follows the contract; properties it does not name
 * (such as `status`) are allowed, as the schema allows them.
 */
export function orderSchemaProblem(items: readonly unknown[]): string | null {
  const schema = openApiDocument.components.schemas.Order
  const properties: Record<string, PropertySchema> = schema.properties
  const required: readonly string[] = 'required' in schema && Array.isArray(schema.required) ? schema.required : []
  for (const [index, item] of items.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return `item ${index}: not an object`
    const record = item as Record<string, unknown>
    const missing = required.find((name) => record[name] === undefined)
    if (missing !== undefined) return `item ${index}: ${missing} is missing`
    for (const [name, property] of Object.entries(properties)) {
      if (record[name] !== undefined && !fits(record[name], property))
        return `item ${index}: ${name} must be ${property.format ?? property.type ?? 'valid'}, got ${JSON.stringify(String(record[name]))}`
    }
  }
  return null
}
