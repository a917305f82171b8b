// node:test's line for coverage's attribution: `import 'petstore-orders-simulator/node-test'` in a test file
// (or `node --test --import petstore-orders-simulator/node-test`) names each test for coverage (docs/coverage.md).
import { relative, sep } from 'node:path'
import { afterEach, beforeEach } from 'node:test'
import { testEnded, testStarted } from './core/outcome-coverage/current-test.js'

/** The parts of node:test's TestContext a name is made of; `filePath` came in Node.js 22.6. */
interface NamedContext {
  fullName: string
  filePath?: string
}

/**
 * A node:test test's full name as coverage keeps it: its file (from the working directory, with `/`), then its
 * suites and title joined by ` > ` as node:test's `fullName` gives them.
 */
function nodeTestName(context: NamedContext, mainFile: string | undefined = process.argv[1]): string {
  const file = context.filePath ?? mainFile
  return file === undefined ? context.fullName : `${relative(process.cwd(), file).split(sep).join('/')} > ${context.fullName}`
}

// Between tests (before, after) no test runs, so nothing is attributed.
beforeEach((context) => testStarted(nodeTestName(context as unknown as NamedContext)))
afterEach((context) => testEnded(nodeTestName(context as unknown as NamedContext)))
