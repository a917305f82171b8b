/** The oldest msw 2 whose API the handlers use (custom predicates). */
const MIN_MSW_2 = [2, 12] as const
/** msw 3 runs on Node.js 22.12 or newer (it calls Promise.withResolvers). */
const MIN_NODE_FOR_MSW_3 = [22, 12] as const

function below(version: string, [major, minor]: readonly [number, number]): boolean {
  const [actualMajor = 0, actualMinor = 0] = version.split('.').map(Number)
  return actualMajor < major || (actualMajor === major && actualMinor < minor)
}

/**
 * What is wrong with the msw this package would run on, in one line, or null
 * when nothing is. Pure, so that every combination can be tested.
 */
export function mswProblem(mswVersion: string | null, nodeVersion: string): string | null {
  const install = 'npm install --save-dev msw@^3 (Node.js 22.12+) or msw@^2.12 (Node.js 20.19+)'
  if (mswVersion === null) return null
  if (below(mswVersion, MIN_MSW_2))
    return `petstore-orders-simulator: msw ${mswVersion} is too old; the simulator needs msw 2.12+ or msw 3. Install one: ${install}.`
  if (!below(mswVersion, [3, 0]) && below(nodeVersion, MIN_NODE_FOR_MSW_3)) {
    return (
      `petstore-orders-simulator: msw ${mswVersion} needs Node.js 22.12 or newer, and this is Node.js ${nodeVersion}. ` +
      `Install msw 2 (npm install --save-dev msw@^2.12) or use Node.js 22.12+.`
    )
  }
  return null
}

/** The version of the msw that `import 'msw'` from this package loads, read from its package.json. */
function installedMswVersion(node: NodeJS.Process): string | null {
  const require = node.getBuiltinModule('node:module').createRequire(import.meta.url)
  let folder: string
  try {
    folder = require.resolve('msw')
  } catch {
    // Not installed: the import of msw itself says so.
    return null
  }
  // Up from its entry to its package.json (not every msw exports ./package.json).
  const { readFileSync } = node.getBuiltinModule('node:fs')
  for (let up = folder.lastIndexOf('/'); up > 0; up = folder.lastIndexOf('/')) {
    folder = folder.slice(0, up)
    try {
      const manifest = JSON.parse(readFileSync(`${folder}/package.json`, 'utf8')) as { name?: unknown; version?: unknown }
      if (manifest.name === 'msw' && typeof manifest.version === 'string') return manifest.version
    } catch {
      // No package.json at this level.
    }
  }
  return null
}

/**
 * Throws one clear line, naming what to install, when the installed msw
 * cannot run the simulator's handlers here (msw 1, msw 3 on Node.js 20),
 * rather than letting msw fail deep inside a request. Runs in Node.js only:
 * in a browser the bundler already chose the msw.
 */
export function assertSupportedMsw(): void {
  // A page, or a runtime without Node's builtins: nothing to check.
  const node = globalThis.process as NodeJS.Process | undefined
  if (node?.getBuiltinModule === undefined || node.versions?.node === undefined) return
  const problem = mswProblem(installedMswVersion(node), node.versions.node)
  if (problem !== null) throw new Error(problem)
}
