// The pieces the admin schemas are written with: what valibot's converter cannot say, said as the JSON Schema itself.
import * as v from 'valibot'

/** A schema whose JSON Schema is given as is (`openapi`): what valibot cannot say, such as an int64 that may be a bigint. */
export const exactly = <T extends v.GenericSchema>(schema: T, openapi: Record<string, unknown>) => v.pipe(schema, v.metadata({ openapi }))
export const described = <T extends v.GenericSchema>(schema: T, description: string) => v.pipe(schema, v.description(description))
/** An optional field whose JSON Schema carries a description beside the shape it names. */
export const optional = <T extends v.GenericSchema>(schema: T, description?: string) =>
  v.optional(description === undefined ? schema : described(schema, description))
export const nullable = <T extends v.GenericSchema>(schema: T, description?: string) =>
  description === undefined ? v.nullable(schema) : described(v.nullable(schema), description)
export const whole = (min?: number, max?: number) =>
  v.pipe(v.number(), v.integer(), v.minValue(min ?? Number.MIN_SAFE_INTEGER), v.maxValue(max ?? Number.MAX_SAFE_INTEGER))
/** An integer between `min` and `max`, either optional; the JSON Schema names only the bounds given. */
export const int = (min?: number, max?: number, description?: string) =>
  exactly(whole(min, max), {
    type: 'integer',
    ...(min === undefined ? {} : { minimum: min }),
    ...(max === undefined ? {} : { maximum: max }),
    ...(description === undefined ? {} : { description }),
  })
