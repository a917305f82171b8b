import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, test } from 'vitest'
import { openApiDocument } from '../src/index.js'
import { expectResponseMatchesContract, matchesSchema } from './support/contract.js'

const json = (body: unknown, status: number, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ 'Content-Type': 'application/json', ...headers }),
  text: JSON.stringify(body),
})

test('is a valid OpenAPI 3.1 document', async () => {
  const validator = new Validator()
  const result = await validator.validate(structuredClone(openApiDocument) as Parameters<Validator['validate']>[0])
  expect(result.errors).toBeUndefined()
  expect(result.valid).toBe(true)
  expect(validator.version).toBe('3.1')
})

test('describes the spec: version 1.0.0, bearer security, production and staging servers ending in /v1', () => {
  expect(openApiDocument.openapi).toMatch(/^3\.1\./)
  expect(openApiDocument.info.version).toBe('1.0.0')
  expect(openApiDocument.security).toEqual([{ bearerAuth: [] }])
  expect(openApiDocument.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
  expect(openApiDocument.servers.map((server) => server.description.split('.')[0])).toEqual(['Production', 'Staging'])
  for (const server of openApiDocument.servers) expect(server.url).toMatch(/\/v1$/)
})

test('has listOrders, cancelOrder and the deprecated GET /pets/{petId}', () => {
  expect(openApiDocument.paths['/store/orders'].get.operationId).toBe('listOrders')
  expect(openApiDocument.paths['/store/orders/{orderId}'].delete.operationId).toBe('cancelOrder')
  expect(openApiDocument.paths['/store/orders/{orderId}'].delete.parameters[0]).toMatchObject({
    name: 'orderId',
    in: 'path',
    required: true,
    schema: { type: 'integer', format: 'int64' },
  })
  expect(openApiDocument.paths['/pets/{petId}'].get.deprecated).toBe(true)
  expect(Object.keys(openApiDocument.paths['/store/orders'].get.responses)).toEqual(['200', '401', 'default'])
  expect(Object.keys(openApiDocument.paths['/store/orders/{orderId}'].delete.responses)).toEqual([
    '204',
    '400',
    '401',
    '404',
    '409',
    'default',
  ])
})

test('has the Order and Error schemas of spec section 2', () => {
  const { Order, Error: ErrorSchema } = openApiDocument.components.schemas
  expect(Object.keys(Order.properties)).toEqual(['id', 'petId', 'quantity', 'shipDate', 'complete'])
  expect('required' in Order).toBe(false)
  expect(Order.properties.id).toMatchObject({ type: 'integer', format: 'int64' })
  expect(Order.properties.shipDate).toMatchObject({ type: 'string', format: 'date-time' })
  expect(ErrorSchema.required).toEqual(['code', 'message', 'status'])
  expect(matchesSchema('components/schemas/Error', { code: 'x', message: 'y', status: 401 })).toBe(true)
  expect(matchesSchema('components/schemas/Error', { code: 'x', message: 'y' })).toBe(false)
  expect(matchesSchema('components/schemas/Order', { id: 1.5 })).toBe(false)
})

describe('the response checker the other tests rely on', () => {
  test('accepts a conforming answer', () => {
    expectResponseMatchesContract('GET', '/store/orders', json([{ id: 1, complete: true }], 200))
  })

  test.each([
    ['an Error body where the list belongs', 'GET', '/store/orders', json({ code: 'x', message: 'y', status: 200 }, 200)],
    ['an empty answer where the default Error body belongs', 'GET', '/store/orders', { status: 503, headers: new Headers(), text: '' }],
    ['a body on a 204', 'DELETE', '/store/orders/1', { status: 204, headers: new Headers(), text: '{}' }],
    ['a wrong field type', 'GET', '/store/orders', json([{ id: '1' }], 200)],
    ['a date that is not date-time', 'GET', '/store/orders', json([{ shipDate: 'tomorrow' }], 200)],
    ['an Error body without status', 'DELETE', '/store/orders/1', json({ code: 'order_not_found', message: 'x' }, 404)],
    ['a 401 without WWW-Authenticate', 'GET', '/store/orders', json({ code: 'unauthorized', message: 'x', status: 401 }, 401)],
    ['a pets answer without Sunset', 'GET', '/pets/1', json({}, 200, { Deprecation: '@1' })],
    ['HTML instead of JSON', 'GET', '/store/orders', { status: 200, headers: new Headers({ 'Content-Type': 'text/html' }), text: '<p>' }],
  ])('rejects %s', (_, method, path, response) => {
    expect(() => expectResponseMatchesContract(method, path, response)).toThrow()
  })
})
