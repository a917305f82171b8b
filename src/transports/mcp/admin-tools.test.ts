import { expect, test } from 'vitest'
import { createAjv } from '../../../test/support/ajv.js'
import { adminTools, type ToolDefinition } from './admin-tools.js'

const { definitions, plans } = adminTools()
const schemaOf = (name: string) => definitions.find((tool) => tool.name === name)?.inputSchema as ToolDefinition['inputSchema']

test("every tool's input schema is JSON Schema on its own: it compiles without the admin document", () => {
  const ajv = createAjv({ strict: false })
  for (const { name, inputSchema } of definitions) expect(() => ajv.compile(inputSchema), name).not.toThrow()
})

test('a tool takes what its operation reads, and refuses what it does not', () => {
  const ajv = createAjv({ strict: false })
  const addFault = ajv.compile(schemaOf('addFault'))
  expect(addFault({ operation: 'cancelOrder', kind: 'status', status: 503, session: 'qa-1' })).toBe(true)
  expect(addFault({ operation: 'cancelOrder', kind: 'explode' })).toBe(false)
  expect(addFault({ kind: 'status' })).toBe(false)
  expect(addFault({ operation: 'cancelOrder', kind: 'status', colour: 'red' })).toBe(false)
  const setLatency = ajv.compile(schemaOf('setLatency'))
  expect(setLatency({ latency: '50-400' })).toBe(true)
  expect(setLatency({ latency: { min: 50, max: 400 } })).toBe(true)
  const removeOrder = ajv.compile(schemaOf('removeOrder'))
  expect(removeOrder({})).toBe(false)
  // An int64 id as a string keeps its digits past 2^53, which a JSON number loses before anyone reads it.
  expect(removeOrder({ orderId: '9007199254740993' })).toBe(true)
  expect(removeOrder({ orderId: 7 })).toBe(true)
  expect(removeOrder({ orderId: 'seven' })).toBe(false)
})

test('each plan sorts the arguments as the admin call reads them', () => {
  expect(plans.get('removeOrder')).toEqual({ name: 'removeOrder', params: ['orderId'], query: [], body: { from: 'none' } })
  expect(plans.get('reset')).toMatchObject({ params: [], body: { from: 'fields', fields: ['scenario', 'seed'], required: false } })
  expect(plans.get('getPact')).toMatchObject({ query: ['consumer', 'provider'], body: { from: 'none' } })
  // A query field the document requires is a required argument.
  expect(schemaOf('getPact').required).toEqual(['consumer'])
  // A body that is no object is one argument, named as its messages name it.
  expect(plans.get('setRateLimit')).toMatchObject({ body: { from: 'argument', argument: 'rateLimit', required: false } })
  expect(plans.get('setLatency')).toMatchObject({ body: { from: 'argument', argument: 'latency' } })
})

test('the annotations say what the method says: a GET reads only, a PUT or DELETE may be repeated, nothing reaches beyond', () => {
  const annotationsOf = (name: string) => definitions.find((tool) => tool.name === name)?.annotations
  expect(annotationsOf('getState')).toEqual({ readOnlyHint: true, openWorldHint: false })
  expect(annotationsOf('removeOrder')).toEqual({ readOnlyHint: false, idempotentHint: true, openWorldHint: false })
  expect(annotationsOf('reset')).toEqual({ readOnlyHint: false, openWorldHint: false })
})
