import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { createAjv } from '../../../test/support/ajv.js'
import { parseRoutes } from '../routes/parse-routes.js'
import { scenarioJsonSchema, scenarioJsonSchemaText } from './scenario-json-schema.js'

test('scenarios/scenario.schema.json is made from the schema the loader checks with', () => {
  const committed = readFileSync(new URL('../../../scenarios/scenario.schema.json', import.meta.url), 'utf8')
  expect(committed, 'it differs from src/core/scenario/scenario-schema.ts: npm run build writes it anew').toBe(scenarioJsonSchemaText())
})

test("a route's headers: the JSON Schema refuses and accepts the names and values the loader does", () => {
  const validate = createAjv({ strict: true }).compile(scenarioJsonSchema())
  const loads = (headers: Record<string, string>) => {
    try {
      parseRoutes([{ method: 'GET', path: '/x', status: 200, headers }], (_, problem) => {
        throw new Error(problem)
      })
      return true
    } catch {
      return false
    }
  }
  const cases: Record<string, string>[] = [
    { 'X-Note': 'plain', 'Set-Cookie': 'a=b', 'Content-Security-Policy': "default-src 'none'", 'Cache-Control': 'no-store' },
    { 'X-Latin1': 'caf\u00e9\t\u00ff', 'x-empty': '', 'X-Teapot': 'te' },
    ...['\u20ac', '\u2028', '\u0001', '\u007f', '\r', '\n', '\0', '\u0100'].map((bad) => ({ 'X-Note': `a${bad}b` })),
    ...['Access-Control-Allow-Origin', 'access-control-max-age', 'Connection', 'KEEP-ALIVE', 'TE', 'Trailer', 'Transfer-Encoding'].map(
      (name) => ({ [name]: 'x' }),
    ),
    ...['Upgrade', 'Proxy-Authenticate', 'Content-Length', 'content-encoding', 'Bad Name', 'x:y', '\u00e9', ''].map((name) => ({
      [name]: 'x',
    })),
  ]
  for (const headers of cases) {
    const scenario = { name: 'headers', routes: [{ method: 'GET', path: '/x', status: 200, headers }] }
    expect(validate(scenario), JSON.stringify(headers)).toBe(loads(headers))
  }
  // The schema and the loader both accept the first two, and refuse every other.
  expect(cases.map(loads).filter(Boolean)).toHaveLength(2)
})
