import fc from 'fast-check'
import { getResponse } from 'msw'
import { describe, expect, test, vi } from 'vitest'
import { createSimulator } from '../src/index.js'
import { KEY } from './support/harness.js'
import { runs } from './support/runs.js'
import { useAppServers } from './support/serve.js'

// Each test sends hundreds of random requests: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 20_000 })

const SEED = Number(process.env['FC_SEED'] ?? Math.floor(Math.random() * 2 ** 31))
console.log(`[fuzz] fast-check seed ${SEED} (replay with FC_SEED=${SEED})`)

/** Any text, including unpaired surrogates, slashes, dots and percent signs. */
const pathIds = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...'0123456789-+.eE%xX /?#'.split('')), maxLength: 30 }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
)

/** What a client can put in a header: bytes 0x20-0xFF and tabs (Fetch refuses CR, LF and NUL). */
const headerText = fc.string({
  unit: fc
    .oneof(
      fc.integer({ min: 0x20, max: 0xff }).filter((code) => code !== 0x7f),
      fc.constant(9),
    )
    .map((code) => String.fromCharCode(code)),
  maxLength: 80,
})
const authorizations = fc.oneof(
  headerText,
  headerText.map((text) => `Bearer ${text}`),
  headerText.map((text) => `${text} ${KEY}`),
)

async function expectWellFormed(response: Response): Promise<void> {
  expect(response.status).toBeLessThan(500)
  const text = await response.text()
  if (response.status === 204) {
    expect(text).toBe('')
    return
  }
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
  expect(() => JSON.parse(text)).not.toThrow()
}

describe('over HTTP', () => {
  const serve = useAppServers()

  test('arbitrary path ids and Authorization headers never give a 5xx, a non-JSON body or a server error', async () => {
    const errors: unknown[] = []
    const { origin } = await serve({ scenario: 'pending', onError: (error) => errors.push(error) })
    await fc.assert(
      fc.asyncProperty(pathIds, authorizations, async (id, authorization) => {
        await expectWellFormed(
          await fetch(`${origin}/v1/store/orders/${encodeURIComponent(id)}`, {
            method: 'DELETE',
            headers: { Authorization: authorization },
          }),
        )
        await expectWellFormed(await fetch(`${origin}/v1/store/orders`, { headers: { Authorization: authorization } }))
        await expectWellFormed(await fetch(`${origin}/v1/pets/${encodeURIComponent(id)}`, { headers: { Authorization: `Bearer ${KEY}` } }))
      }),
      { seed: SEED, numRuns: runs(300, 30) },
    )
    expect(errors).toEqual([])
  }, 120_000)

  test('raw, unencoded path text never breaks the server either', async () => {
    const errors: unknown[] = []
    const { origin } = await serve({ scenario: 'pending', onError: (error) => errors.push(error) })
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.constantFrom(..."1a%./\\:@!$&'()*+,;=-_~[]{}|^`".split('')), maxLength: 30 }), async (raw) => {
        const response = await fetch(`${origin}/v1/store/orders/${raw}`, { method: 'DELETE', headers: { Authorization: `Bearer ${KEY}` } })
        await expectWellFormed(response)
      }),
      { seed: SEED, numRuns: runs(300, 30) },
    )
    expect(errors).toEqual([])
  }, 120_000)
})

test('in process, arbitrary path ids and Authorization headers never give a 5xx or a non-JSON body', async () => {
  const sim = createSimulator({ scenario: 'pending' })
  await fc.assert(
    fc.asyncProperty(pathIds, authorizations, async (id, authorization) => {
      for (const [method, path] of [
        ['DELETE', `/store/orders/${encodeURIComponent(id)}`],
        ['GET', '/store/orders'],
        ['GET', `/pets/${encodeURIComponent(id)}`],
      ] as const) {
        const request = new Request(`https://api.petstore.example/v1${path}`, { method, headers: { Authorization: authorization } })
        const response = await getResponse([...sim.handlers], request)
        expect(response).toBeDefined()
        if (response !== undefined) await expectWellFormed(response)
      }
    }),
    { seed: SEED, numRuns: runs(1000, 100) },
  )
}, 120_000)
