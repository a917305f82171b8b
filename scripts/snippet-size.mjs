// Measures what a Vite app's production build makes of README's `enableMocking` snippet: its chunks,
// what each package adds, and the simulator's own script besides msw. scripts/demo-size.mjs prints it;
// test/chunk-size.test.ts keeps the budget.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, createLogger } from 'vite'

const root = fileURLToPath(new URL('../', import.meta.url))

/** The most a page may load of the simulator besides msw, for the default scenario: 120 KB, in bytes. */
export const BUDGET = 120_000

/** README's snippet, as a reader copies it: the block that starts with `// mocks.ts`. */
export function readmeSnippet() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const block = /```ts\n(\/\/ mocks\.ts\n[\s\S]*?)```/.exec(readme)
  if (block === null) throw new Error('README.md has no ```ts block starting with "// mocks.ts" (the enableMocking snippet).')
  return block[1]
}

/** The folder of package `name` as Node would find it from `folder`: the nearest node_modules that holds it. */
function packageFolder(name, folder) {
  for (let at = folder; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(at) === at) return undefined
  }
}

/** msw and every package it depends on, as installed here: what "msw itself" weighs in a page. */
function mswPackages() {
  const found = new Set()
  const visit = (name, from) => {
    if (found.has(name)) return
    const folder = packageFolder(name, from)
    if (folder === undefined) return // an optional dependency that is not installed
    found.add(name)
    // msw installed under an alias (the test matrix links msw 3 from node_modules/msw3): its modules carry that name.
    found.add(basename(realpathSync(folder)))
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, folder)
  }
  visit('msw', join(root, 'dist/src'))
  return found
}

function ownerOf(id) {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1]
  if (inPackage !== undefined) return inPackage
  return id.startsWith(root) ? 'petstore-orders-simulator' : 'the app'
}

/** A production build of the snippet and a page that calls it as README's Vite row says; `external` leaves packages out. */
async function buildSnippet(folder, external) {
  const warnings = []
  const logger = createLogger('warn', { allowClearScreen: false })
  const warn = logger.warn
  logger.warn = (message, options) => {
    warnings.push(message)
    warn(message, options)
  }
  const result = await build({
    root: folder,
    configFile: false,
    logLevel: 'warn',
    customLogger: logger,
    resolve: { alias: { 'petstore-orders-simulator/browser': join(root, 'dist/src/browser.js') } },
    build: { write: false, rolldownOptions: { external: (id) => external(id) } },
  })
  const chunks = (Array.isArray(result) ? result.flatMap((each) => each.output) : result.output).filter((file) => file.type === 'chunk')
  return { chunks, warnings }
}

/**
 * Builds README's snippet twice: as an app gets it, and with msw left out,
 * which gives the simulator's own bytes exactly. `startup` is everything a
 * page loads of the simulator (besides msw) on the `default` scenario: its
 * chunk and the chunks that imports. The others load only when asked for:
 * faker's (a scenario generating orders at another seed or count than a
 * built-in one's; test/browser/demo.browser.test.ts sees a page on the
 * default scenario never request it), the state kept across reloads, the
 * in-page panel.
 */
export async function measureSnippet() {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-snippet-'))
  try {
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'mocks.ts'), readmeSnippet())
    writeFileSync(
      join(folder, 'main.ts'),
      "import { enableMocking } from './mocks'\n\nenableMocking(import.meta.env.DEV).then(() => document.body.append('ready'))\n",
    )
    writeFileSync(join(folder, 'index.html'), '<!doctype html><title>app</title><script type="module" src="./main.ts"></script>\n')
    const msw = mswPackages()
    const full = await buildSnippet(folder, () => false)
    const withoutMsw = await buildSnippet(folder, (id) => msw.has(/^((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1]))
    const describe = (chunk) => {
      const shares = new Map()
      for (const [id, module] of Object.entries(chunk.modules)) {
        const owner = ownerOf(id)
        shares.set(owner, (shares.get(owner) ?? 0) + module.renderedLength)
      }
      const rendered = [...shares.values()].reduce((sum, bytes) => sum + bytes, 0)
      const bytes = Buffer.byteLength(chunk.code)
      // Shares of the minified chunk, in proportion to each package's code before minifying.
      const packages = [...shares]
        .map(([name, share]) => ({ name, bytes: Math.round((share / Math.max(rendered, 1)) * bytes), msw: msw.has(name) }))
        .sort((a, b) => b.bytes - a.bytes)
      return { file: chunk.fileName, bytes, gzip: gzipSync(chunk.code).byteLength, isEntry: chunk.isEntry, packages }
    }
    const byName = new Map(withoutMsw.chunks.map((chunk) => [chunk.fileName, chunk]))
    const simulatorEntry = withoutMsw.chunks.find((chunk) => Object.keys(chunk.modules).some((id) => id.endsWith('dist/src/browser.js')))
    if (simulatorEntry === undefined)
      throw new Error('The build has no chunk with the simulator (dist/src/browser.js): is the package built?')
    // The simulator's chunk and the chunks it imports statically: what loads before the worker starts.
    const startup = new Set()
    const visit = (chunk) => {
      if (startup.has(chunk) || chunk.isEntry) return
      startup.add(chunk)
      for (const imported of chunk.imports) if (byName.has(imported)) visit(byName.get(imported))
    }
    visit(simulatorEntry)
    const lazy = withoutMsw.chunks.filter((chunk) => !chunk.isEntry && !startup.has(chunk))
    return {
      chunks: full.chunks.map(describe),
      warnings: full.warnings,
      startup: { bytes: [...startup].reduce((sum, chunk) => sum + Buffer.byteLength(chunk.code), 0), chunks: [...startup].map(describe) },
      lazy: lazy.map(describe),
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}
