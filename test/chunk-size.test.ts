// @ts-expect-error: a plain .mjs script (npm run size:demo), without types of its own.
import { BUDGET, measureSnippet } from '../scripts/snippet-size.mjs'
import { describe, expect, test } from 'vitest'

interface Chunk {
  file: string
  bytes: number
  packages: { name: string; bytes: number; msw: boolean }[]
}
interface Measured {
  chunks: Chunk[]
  warnings: string[]
  startup: { bytes: number; chunks: Chunk[] }
  lazy: Chunk[]
}

// README's enableMocking snippet, built by Vite for production the way an app builds it (npm run size:demo prints the figures).
describe("README's snippet in a production Vite build", async () => {
  const measured = (await measureSnippet()) as Measured
  const holding = (name: string) => (chunk: Chunk) => chunk.packages.some((each) => each.name === name)

  test('Vite prints no warning: no chunk is past 500 kB, no dynamic import is pulled back into its importer', () => {
    expect(measured.warnings).toEqual([])
    expect(Math.max(...measured.chunks.map((chunk) => chunk.bytes))).toBeLessThan(500_000)
  })

  test('the simulator besides msw, as a page on the default scenario loads it, is at most 120,000 bytes minified', () => {
    // The same figure npm run size:demo prints, against the same budget.
    expect(BUDGET).toBe(120_000)
    expect(measured.startup.bytes).toBeLessThanOrEqual(BUDGET)
    expect(measured.startup.chunks.some(holding('petstore-orders-simulator'))).toBe(true)
  })

  test('faker and the state kept across reloads are chunks of their own, loaded only when asked for', () => {
    expect(measured.startup.chunks.some(holding('@faker-js/faker'))).toBe(false)
    expect(measured.lazy.filter(holding('@faker-js/faker'))).toHaveLength(1)
    expect(measured.lazy.some((chunk) => chunk.file.includes('session-persistence'))).toBe(true)
  })
})
