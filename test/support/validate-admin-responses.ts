// A vitest setup file: every answer a test gets from `fetch` under /__sim is
// checked against the admin OpenAPI document, as the harness checks the API's.
import { appendFileSync } from 'node:fs'
import { afterAll, afterEach, beforeEach, expect } from 'vitest'

type Fetch = typeof globalThis.fetch

/** The fetch a wrapper delegates to; also how a wrapper is told from another patch (msw's). */
const INNER = Symbol('the fetch this admin-contract wrapper calls')
type WrappedFetch = Fetch & { [INNER]: Fetch }

// Loaded on the first admin answer only: most test files never call the admin API, and ajv costs an import.
let checker: Promise<typeof import('./admin-contract.js')> | undefined
const loadChecker = () => {
  checker ??= import('./admin-contract.js')
  return checker
}

/** Answers already checked: a wrapper under msw's patch and one over it see the same passthrough Response. */
const checked = new WeakSet<Response>()
/** Mismatches of the running test, failed again after it in case the test caught the rejected fetch. */
const mismatches: string[] = []

const isAdminPath = (pathname: string) => pathname === '/__sim' || pathname.startsWith('/__sim/')

/** The running test's mismatches, taken so that the check after it does not fail it: for a test that makes them on purpose. */
export function takeAdminMismatches(): string[] {
  return mismatches.splice(0)
}

function requestOf(input: Parameters<Fetch>[0], init: Parameters<Fetch>[1]): { method: string; url: URL } | undefined {
  try {
    if (input instanceof Request) return { method: (init?.method ?? input.method).toUpperCase(), url: new URL(input.url) }
    return { method: (init?.method ?? 'GET').toUpperCase(), url: new URL(input instanceof URL ? input.href : input) }
  } catch {
    // A URL fetch itself will refuse: nothing to check.
    return undefined
  }
}

async function check(method: string, url: URL, response: Response): Promise<void> {
  const { bodyNeeded, adminResponseProblems, countCheck } = await loadChecker()
  let text: string | undefined
  if (bodyNeeded(method, response.headers)) {
    try {
      text = await response.clone().text()
    } catch {
      // The body failed to arrive (the connection dropped): the test sees that itself when it reads it.
      return
    }
  }
  const target = `${url.pathname}${url.search}`
  countCheck(method, url.pathname, response.status, 'fetch')
  const problems = adminResponseProblems(method, target, { status: response.status, headers: response.headers, text })
  if (problems.length === 0) return
  const message = `${method} ${target} answered ${response.status}, which does not match the admin document (admin-openapi.json): ${problems.join('; ')}`
  mismatches.push(message)
  throw new Error(message)
}

function wrap(inner: Fetch): WrappedFetch {
  const wrapped = async (input: Parameters<Fetch>[0], init?: Parameters<Fetch>[1]): Promise<Response> => {
    const response = await inner(input, init)
    const request = requestOf(input, init)
    if (request === undefined || checked.has(response)) return response
    // Where the answer came from: the last URL of a followed redirect.
    const url = response.redirected && response.url !== '' ? new URL(response.url) : request.url
    if (!isAdminPath(url.pathname)) return response
    checked.add(response)
    await check(request.method, url, response)
    return response
  }
  return Object.assign(wrapped, { [INNER]: inner })
}

/** Puts a wrapper outermost, over whatever fetch is installed now (undici's, or msw's patch of it). */
function install(): void {
  if (typeof globalThis.fetch === 'function' && !(INNER in globalThis.fetch)) globalThis.fetch = wrap(globalThis.fetch)
}

// Now, for calls made in a test file's beforeAll; and again before each test, over a patch msw made since.
install()
beforeEach(install)

afterEach(() => {
  const failed = mismatches.splice(0)
  if (failed.length > 0) throw new Error(`Admin answers that do not match the admin OpenAPI document:\n${failed.join('\n')}`)
})

afterAll(async () => {
  // Put back what was there, unless another patch (msw's) went over the wrapper since.
  if (INNER in globalThis.fetch) globalThis.fetch = (globalThis.fetch as WrappedFetch)[INNER]
  // ADMIN_CONTRACT_STATS=<file> appends how many admin answers each test file had checked.
  const file = process.env['ADMIN_CONTRACT_STATS']
  if (file === undefined || file === '') return
  const counts = (await loadChecker()).checkCounts()
  if (counts.checked > 0) appendFileSync(file, `${JSON.stringify({ file: expect.getState().testPath, ...counts })}\n`)
})
