import { expect, test } from 'vitest'
import openApiDocument from '../../contract/openapi.json' with { type: 'json' }
import { OPERATIONS } from './registry.js'

type Paths = Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>

test("each operation's id, method, path and statuses are the OpenAPI document's (Prefer: code= reads the statuses)", () => {
  const documented = Object.entries(openApiDocument.paths as unknown as Paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      id: operation.operationId,
      method: method.toUpperCase(),
      path,
      statuses: Object.keys(operation.responses)
        .filter((key) => /^\d{3}$/.test(key))
        .map(Number),
    })),
  )
  const ours = OPERATIONS.map(({ id, method, path, statuses }) => ({ id, method, path, statuses: [...statuses] }))
  expect(ours).toEqual(documented)
})
