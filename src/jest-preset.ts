import { createRequire } from 'node:module'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { assertSupportedJest } from './transports/jest/jest-support.js'
import { assertSupportedMsw } from './transports/msw/msw-support.js'

/** The package's folder: two up from dist/src. A symlinked install (npm link, a workspace) resolves outside node_modules. */
const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const SEPARATOR = '[\\\\/]'

/**
 * The Jest preset, `preset: 'petstore-orders-simulator'`: ES modules of this
 * package and of node_modules (msw's dependencies are ES modules only since
 * 2.11.3, msw 3 entirely) become CommonJS in Jest's default mode, the
 * project's own files keep Jest's default transform (babel-jest), and
 * `expect(sim).toHaveReceived(...)` is registered.
 * @note A project's own `transform` entries come first; keep them to the
 * project's files (`'^.+\\.tsx?$'`), or they take node_modules over too.
 */
function jestPreset() {
  // Checked here, in the Jest process, so that a combination that cannot work says so once instead of in every test file.
  try {
    assertSupportedJest(createRequire(import.meta.url).cache)
    assertSupportedMsw()
  } catch (error) {
    // Jest prints a preset's error with its stack: the line is the whole story.
    if (error instanceof Error) error.stack = ''
    throw error
  }
  return {
    transform: {
      [`^(?:${literally(PACKAGE_ROOT)}|.*${SEPARATOR}node_modules)${SEPARATOR}.+\\.m?js$`]: join(
        PACKAGE_ROOT,
        'dist/src/transports/jest/esm-to-cjs.js',
      ),
      // Jest's own default for the project's files, which Jest drops once a preset has a transform.
      '\\.[jt]sx?$': 'babel-jest',
    },
    // Jest's default skips node_modules; the transformer above passes CommonJS through, so nothing else changes.
    transformIgnorePatterns: [`\\.pnp\\.[^\\${sep}]+$`],
    setupFilesAfterEnv: [join(PACKAGE_ROOT, 'dist/src/jest.js')],
  }
}

export default jestPreset()
