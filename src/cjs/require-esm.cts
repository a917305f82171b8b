/** What Jest without its preset says of an ES module (Node.js's own wording is "require() of ES Module"). */
const JEST_WITHOUT_PRESET = /^Must use import to load ES Module/
/** What msw says on loading where Node's web globals are missing, as in jest-environment-jsdom. */
const NO_FETCH_API = /^(Request|Response|Headers|fetch|TextEncoder|ReadableStream|BroadcastChannel) is not defined$/

/**
 * What a CommonJS `require()` of this package loads: its ES module, which
 * Node.js 20.19+ requires natively and the Jest preset turns into CommonJS.
 * Where Jest cannot load it, the error names the line to change instead of
 * what went wrong inside.
 */
function requireEsm(load: () => unknown): unknown {
  try {
    return load()
  } catch (error) {
    // Not instanceof: Jest throws from outside the test's realm.
    const message = (error as { message?: unknown } | null)?.message
    if (typeof message === 'string' && JEST_WITHOUT_PRESET.test(message)) {
      throw new Error(
        'petstore-orders-simulator: Jest loads it, msw and their ES modules only through its preset. Add preset: \'petstore-orders-simulator\' to your Jest config (jest.config.js, or "jest" in package.json), and leave transformIgnorePatterns to it.',
      )
    }
    if (typeof message === 'string' && NO_FETCH_API.test(message) && typeof document !== 'undefined') {
      throw new Error(
        `petstore-orders-simulator: this test environment lacks the Fetch API and web globals msw needs (${message}); jest-environment-jsdom takes them away. Use testEnvironment: 'jest-fixed-jsdom' (npm install --save-dev jest-fixed-jsdom).`,
      )
    }
    throw error
  }
}

export = requireEsm
