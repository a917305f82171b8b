import { describe, expect, test } from 'vitest'
import { TRANSPORTS } from './support/harness.js'

describe.each(TRANSPORTS)('$name', ({ use }) => {
  const simulate = use()

  test('answers the pet record the scenario declares, with Deprecation and Sunset headers', async () => {
    const api = simulate()

    const response = await api.pet(2)

    expect(response.status).toBe(200)
    expect(response.json()).toEqual({ id: 2, name: 'Tom', category: 'cat', status: 'available' })
    expect(response.headers.get('Deprecation')).toBe('@1767225600')
    expect(response.headers.get('Sunset')).toBe('Fri, 01 Jan 2027 00:00:00 GMT')
  })

  test('answers 404 pet_not_found for a pet the scenario does not declare, still announcing deprecation', async () => {
    const api = simulate({ scenario: 'pending' })

    const response = await api.pet(1)

    expect(response.status).toBe(404)
    expect(response.json()).toEqual({ code: 'pet_not_found', message: 'Pet "1" was not found in this scenario.', status: 404 })
    expect(response.headers.get('Deprecation')).toMatch(/^@\d+$/)
    expect(response.headers.get('Sunset')).toMatch(/ GMT$/)
  })

  test('carries the deprecation headers on a 401 too', async () => {
    const api = simulate()
    const response = await api.pet(1, { key: null })
    expect(response.status).toBe(401)
    expect(response.headers.get('Deprecation')).toBe('@1767225600')
    expect(response.headers.get('Sunset')).toBe('Fri, 01 Jan 2027 00:00:00 GMT')
  })

  test('announces the deprecation and sunset dates it is configured with', async () => {
    const api = simulate({ deprecation: { deprecatedAt: '2025-06-30T12:00:00Z', sunsetAt: new Date('2026-12-31T23:59:59Z') } })

    const response = await api.pet(1)

    expect(response.headers.get('Deprecation')).toBe('@1751284800')
    expect(response.headers.get('Sunset')).toBe('Thu, 31 Dec 2026 23:59:59 GMT')
  })

  test('serves any JSON value a scenario declares, big integers included, keyed by the exact petId string', async () => {
    const api = simulate({
      scenario: {
        name: 'odd-pets',
        description: 'opaque pets',
        apiKeys: ['petstore-test-key'],
        pets: { '7': ['a', 1, null], rex: 'just a string', '8': { tag: 9223372036854775807n } },
      },
    })

    expect((await api.pet(7)).json()).toEqual(['a', 1, null])
    expect((await api.pet('rex')).json()).toBe('just a string')
    expect((await api.pet(8)).text).toBe('{"tag":9223372036854775807}')
    expect((await api.pet('07')).status).toBe(404)
  })

  test("takes the dates from the scenario's deprecation field, an option winning date by date, and again after a reset", async () => {
    const scenario = { name: 'dated', deprecation: { deprecatedAt: '2025-06-30T12:00:00Z', sunsetAt: '2026-12-31T23:59:59Z' } }
    const fromScenario = simulate({ scenario })
    expect((await fromScenario.pet(1)).headers.get('Deprecation')).toBe('@1751284800')
    expect((await fromScenario.pet(1)).headers.get('Sunset')).toBe('Thu, 31 Dec 2026 23:59:59 GMT')
    expect(fromScenario.sim.state().options.deprecation.sunsetAt.toISOString()).toBe('2026-12-31T23:59:59.000Z')
    await fromScenario.sim.reset('pending')
    expect((await fromScenario.pet(1)).headers.get('Deprecation')).toBe('@1767225600')

    // Made last: in process, the latest simulator's handlers answer first.
    const optionWins = simulate({ scenario, deprecation: { sunsetAt: '2030-01-01T00:00:00Z' } })
    expect((await optionWins.pet(1)).headers.get('Deprecation')).toBe('@1751284800')
    expect((await optionWins.pet(1)).headers.get('Sunset')).toBe('Tue, 01 Jan 2030 00:00:00 GMT')
  })

  test('refuses a scenario whose deprecation date is not an RFC 3339 date-time', () => {
    expect(() => simulate({ scenario: { name: 'dated', deprecation: { sunsetAt: 'next year' } } })).toThrow(
      'deprecation.sunsetAt must be an ISO 8601 date-time',
    )
  })

  test('refuses impossible deprecation dates when the simulator is created', () => {
    expect(() => simulate({ deprecation: { sunsetAt: 'next year' } })).toThrow('deprecation.sunsetAt must be a valid date')
  })
})
