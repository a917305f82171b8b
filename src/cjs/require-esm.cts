/** What Jest without its preset says of an ES module (Node.js's own wording is "require() of ES Module"). */
const JEST_WITHOUT_PRESET = /^Must use import to load ES Module/
/** What msw says on loading where Node's web globals are missing, as in jest-environment-jsdom. */
const NO_FETCH_API = /^(Request|Response|Headers|fetch|TextEncoder|ReadableStream|BroadcastChannel) is not defined$/

/** What Node.js says of an import of msw where it is not installed. */
const NO_MSW = /^Cannot find (package|module) 'msw'/

/**
 * What a CommonJS `require()` of this package loads: its ES module, which
 * Node.js 20.19+ requires natively and the Jest preset turns into CommonJS.
 * Where Jest cannot load it, or msw is missing from an entry that imports it
 * (`entry`), the error names the line to change instead of what went wrong inside.
 */
function requireEsm(load: () => unknown, entry?: string): unknown {
  try {
    return load()
  } catch (error) {
    // Not instanceof: Jest throws from outside the test's realm.
    const message = (error as { message?: unknown } | null)?.message
    if (entry !== undefined && typeof message === 'string' && NO_MSW.test(message)) {
      // As require-msw.ts says it of sim.handlers.
      throw new Error(
        `petstore-orders-simulator: ${entry} needs msw, which is not installed: npm install --save-dev msw (msw 2.12+, or msw 3 on Node.js 22.12+). sim.fetch needs none.`,
      )
    }
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
