import * as v from 'valibot'
import { ScenarioError } from './scenario-error.js'
import { ScenarioSchema } from './scenario-schema.js'

/** A scenario after checking: its defaults filled in. */
export type CheckedScenario = v.InferOutput<typeof ScenarioSchema>

/** The field an issue is at, as a scenario's messages name it: `orders[2].id`, `pets.7[0]`; empty for the scenario itself. */
function fieldOf(path: v.IssuePathItem[] | undefined): string {
  let field = ''
  for (const { type, key } of path ?? []) field += type === 'array' ? `[${String(key)}]` : field === '' ? String(key) : `.${String(key)}`
  return field
}

/** The message of an issue: one said after the field's name (a space or a colon first), or whole (field-schemas.ts). */
function messageOf(issue: v.BaseIssue<unknown>, field: string): string {
  if (issue.expected === 'never') return `unknown field ${field}${issue.message}`
  return /^[ :]/.test(issue.message) ? `${field || 'the scenario'}${issue.message}` : issue.message
}

/**
 * Checks that a value is a valid scenario and returns a clean copy of it.
 * Throws a `ScenarioError` naming `source` and the first field at fault.
 * @note Orders are not generated here; see `materializeOrders`.
 */
export function parseScenario(value: unknown, source: string): CheckedScenario {
  const result = v.safeParse(ScenarioSchema, value, { abortEarly: true })
  if (result.success) return result.output
  const [issue] = result.issues
  const field = fieldOf(issue.path)
  throw new ScenarioError(source, messageOf(issue, field), field || undefined)
}
