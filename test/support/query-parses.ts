import { afterEach, vi } from 'vitest'

/**
 * Counts the queries parsed from here on (each `new URLSearchParams`), for tests that a request's
 * query is parsed only where a route names parameters. The global is put back after each test.
 */
export function countQueryParses() {
  const parsed = vi.fn()
  vi.stubGlobal(
    'URLSearchParams',
    class extends URLSearchParams {
      constructor(init?: string) {
        super(init)
        parsed()
      }
    },
  )
  return parsed
}

afterEach(() => vi.unstubAllGlobals())
