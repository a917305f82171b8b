/**
 * msw, loaded on first use rather than imported, so that the package loads
 * and `sim.fetch` runs with no msw installed. Synchronous, because
 * `sim.handlers` and `setupSimulatorServer` are: Node.js, Bun and Deno can
 * require an ES module; a page imports msw through `./browser` instead.
 */
import type { MswHttp } from './handlers.js'

type Require = (id: string) => unknown
/** `resolve` where the runtime has it (Node.js 20.6+, Bun, Deno); `require` where the Jest preset defines it as Jest's own. */
type Meta = { resolve?: (specifier: string) => string; require?: Require }

/** What requiring a package throws when it is not installed: Node's codes, Bun's and Deno's messages. */
function isMissing(error: unknown, specifier: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return (
    code === 'MODULE_NOT_FOUND' ||
    code === 'ERR_MODULE_NOT_FOUND' ||
    (typeof message === 'string' && /cannot find (module|package)/i.test(message) && message.includes(specifier))
  )
}

/** The runtime's synchronous loader of modules, or undefined in a page. */
export function moduleLoader(): Require | undefined {
  // Written out in full, not through a variable: the Jest preset replaces `import.meta.require` with Jest's require.
  const jestRequire = (import.meta as Meta).require
  const resolve = (import.meta as Meta).resolve?.bind(import.meta)
  // Under the Jest preset: Jest's require, so that msw comes from Jest's registry as the test's own does.
  if (typeof jestRequire === 'function' && resolve === undefined) return jestRequire
  const node = globalThis.process as NodeJS.Process | undefined
  if (node?.getBuiltinModule === undefined) return undefined
  const requireHere = node.getBuiltinModule('node:module').createRequire(import.meta.url)
  const { fileURLToPath } = node.getBuiltinModule('node:url')
  return (specifier) => {
    let resolved: string | undefined
    try {
      // The ES module build, the one `import 'msw'` loads: the same msw (and interceptors) as the test's import,
      // where require('msw') would load msw 2's CommonJS build beside it.
      resolved = resolve === undefined ? undefined : fileURLToPath(resolve(specifier))
    } catch {
      // Not found that way (or not a file): require() below says which.
    }
    return requireHere(resolved ?? specifier)
  }
}

/** The install line every "needs msw" message ends with. */
const INSTALL_MSW = 'npm install --save-dev msw (msw 2.12+, or msw 3 on Node.js 22.12+). sim.fetch needs none.'

/** msw, for `sim.handlers`; throws one line naming what to do when msw is missing or cannot be loaded here. */
export function requireMsw(): MswHttp {
  const load = moduleLoader()
  if (load === undefined) {
    throw new Error(
      `petstore-orders-simulator: sim.handlers needs msw, which a page loads through petstore-orders-simulator/browser (startSimulatorWorker, or its createSimulator). sim.fetch needs no msw.`,
    )
  }
  try {
    return load('msw') as MswHttp
  } catch (error) {
    if (isMissing(error, 'msw'))
      throw new Error(`petstore-orders-simulator: sim.handlers needs msw, which is not installed: ${INSTALL_MSW}`)
    if ((error as { code?: unknown } | null)?.code !== 'ERR_REQUIRE_ESM') throw error
    throw new Error(
      `petstore-orders-simulator: sim.handlers cannot load msw here, where require() cannot load an ES module (Jest's ES module mode before Node.js 24.9). ` +
        'Take createSimulator from petstore-orders-simulator/node, which imports msw, or use sim.fetch, which needs none.',
    )
  }
}
