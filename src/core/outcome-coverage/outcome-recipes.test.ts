import { describe, expect, test } from 'vitest'
import { type RecipeStep, recipeOf } from './outcome-recipes.js'
import { type Outcome, SPEC_OUTCOMES } from './outcomes.js'

const OUTCOMES = SPEC_OUTCOMES.outcomes
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

describe('recipeOf: a recipe for every documented outcome', () => {
  test.each(OUTCOMES.map((outcome) => [outcome.id, outcome] as const))('%s', (_, outcome) => {
    const { text, steps } = recipeOf(outcome)
    expect(text.length).toBeGreaterThan(0)
    expect(text).not.toMatch(CONTROL)
    expect(text.length).toBeLessThanOrEqual(200)
    // Admin calls, then exactly one request, last.
    expect(steps.filter((step) => 'request' in step)).toHaveLength(1)
    expect('request' in (steps.at(-1) as RecipeStep)).toBe(true)
    for (const step of steps.slice(0, -1)) {
      if (!('admin' in step)) throw new Error('only admin calls come before the request')
      expect(step.admin.path).toMatch(/^\/__sim\//)
    }
    const last = steps.at(-1) as Extract<RecipeStep, { request: unknown }>
    expect(last.request.path).toMatch(/^\/v1\//)
    // The text names the request a person makes.
    expect(text).toContain(`${last.request.method} ${last.request.path}`)
    // Only the default key, and only under Authorization.
    for (const [name, value] of Object.entries(last.request.headers ?? {})) {
      expect(name).toBe('Authorization')
      expect(value).toBe('Bearer petstore-test-key')
    }
  })

  test('a 401 is asked for without a key, every other outcome with it', () => {
    for (const outcome of OUTCOMES) {
      const last = recipeOf(outcome).steps.at(-1) as Extract<RecipeStep, { request: unknown }>
      expect(last.request.headers === undefined, outcome.id).toBe(outcome.status === 401)
    }
  })

  test('the texts a person reads for the shipped order and the empty list', () => {
    const byId = (id: string) => recipeOf(OUTCOMES.find((outcome) => outcome.id === id) as Outcome).text
    expect(byId('cancelOrder.409.order_already_shipped')).toBe(
      'Reset to scenario shipped, then DELETE /v1/store/orders/1 with the key: order 1 has shipped.',
    )
    expect(byId('listOrders.200.empty')).toBe(
      'Reset to scenario missing, then GET /v1/store/orders with the key: scenario missing holds no orders.',
    )
    expect(byId('cancelOrder.409.order_not_pending')).toBe(
      'Reset to scenario pending, set order 1 to cancelled, then DELETE /v1/store/orders/1 with the key: order 1 is cancelled, not pending.',
    )
  })

  test('request paths follow the base path, with or without a trailing slash', () => {
    for (const outcome of OUTCOMES) {
      for (const base of ['/api', '/api/']) {
        const { text, steps } = recipeOf(outcome, base)
        const last = steps.at(-1) as Extract<RecipeStep, { request: unknown }>
        expect(last.request.path).toMatch(/^\/api\/(store|pets)\//)
        expect(text).toContain(` /api/`)
        // Admin paths do not move with the API's base.
        for (const step of steps) if ('admin' in step) expect(step.admin.path).toMatch(/^\/__sim\//)
      }
    }
  })

  test('a simulator at the root of its origin has request paths at the root', () => {
    const [first] = OUTCOMES
    if (first === undefined) throw new Error('no outcomes')
    const last = recipeOf(first, '/').steps.at(-1) as Extract<RecipeStep, { request: unknown }>
    expect(last.request.path).toBe('/store/orders')
  })

  test('an outcome no rule covers is refused in one line, naming it', () => {
    const unknown = (fields: Partial<Outcome>): Outcome => ({ id: 'x', operation: 'cancelOrder', status: 418, code: null, ...fields })
    expect(() => recipeOf(unknown({ id: 'cancelOrder.418' }))).toThrow(/^No rule makes a recipe for the outcome cancelOrder\.418\.$/)
    expect(() => recipeOf(unknown({ id: 'cancelOrder.409.order_eaten', status: 409, code: 'order_eaten' }))).toThrow(
      'cancelOrder.409.order_eaten',
    )
    expect(() => recipeOf(unknown({ id: 'feedPet.200', operation: 'feedPet' as Outcome['operation'], status: 200 }))).toThrow('feedPet.200')
  })
})
