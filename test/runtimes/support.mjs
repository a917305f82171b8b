// What the runners of test/runtimes/<name>/ share: each installs its tools from the npm registry in its own
// folder (npm ci, scripts off: Bun and Deno ship their binaries in optional dependencies), writes the files
// README.md and docs/ give for it into .runtimes/<name>/, beside this repository's build, and runs them.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
import { transformSync } from 'esbuild'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Runs `action`, printing its name and how long it took. */
export async function step(name, action) {
  const started = performance.now()
  console.log(`-- ${name}`)
  const result = await action()
  console.log(`   (${((performance.now() - started) / 1000).toFixed(1)} s)`)
  return result
}

/** Runs a command; its output, and whether it passed. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options })
  const output = stripVTControlCharacters(`${result.stdout ?? ''}${result.stderr ?? ''}`)
  return { ok: result.status === 0, status: result.status ?? result.signal, output }
}

/** Like `run`, but a failure throws with the command's output. */
export function mustRun(command, args, options = {}) {
  const result = run(command, args, options)
  if (!result.ok) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.output}`)
  return result.output
}

/** The doc test's block reader (TypeScript, compiled here with esbuild), and every page's blocks. */
export async function docBlocks() {
  const source = readFileSync(join(ROOT, 'test/support/doc-blocks.ts'), 'utf8')
  const { code } = transformSync(source, { loader: 'ts', format: 'esm' })
  const reader = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)
  return { reader, blocks: reader.docPages(ROOT).flatMap((page) => reader.readBlocks(ROOT, page)) }
}

/**
 * The files README.md and docs/ give for runtime `name`, by name (a JSON block is deno.json), README's
 * vitest example, and `withTestsOf(header)`: a header followed by that example's tests, from `const API` on.
 */
export async function runtimeFiles(name) {
  const { reader, blocks } = await docBlocks()
  const example = reader.vitestExample(blocks).code
  const files = {}
  for (const block of blocks.filter((each) => each.marker.kind === 'runtime' && each.marker.name === name)) {
    const file = block.language === 'json' ? 'deno.json' : reader.blockFileName(block)
    if (file === null) throw new Error(`${block.page}:${block.line}: a runtime block names its file on its first line`)
    files[file] = block.code
  }
  return { files, example, withTestsOf: (header) => reader.withTestsOf(header, example) }
}

/**
 * Installs test/runtimes/<name>'s tools (npm ci, scripts off, npm's one cache) and makes
 * .runtimes/<name>/ a project that installed them and this package: `files` written there.
 */
export function prepareProject(name, files, { copy = false } = {}) {
  const tools = join(ROOT, 'test/runtimes', name)
  mustRun('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: tools })
  // The package as `npm link` would put it, its own dependencies (msw among them) found from the repository; or
  // copied, where a runtime takes a package whose real path is outside node_modules for code of the project's own.
  const installed = join(tools, 'node_modules/petstore-orders-simulator')
  if (!copy) symlinkSync(ROOT, installed)
  for (const entry of copy ? ['package.json', 'dist/src', 'dist/vendor', 'dist/scenarios', 'src', 'scenarios'] : [])
    cpSync(join(ROOT, entry), join(installed, entry), { recursive: true })
  const folder = join(ROOT, '.runtimes', name)
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(folder, { recursive: true })
  symlinkSync(join(tools, 'node_modules'), join(folder, 'node_modules'))
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: `${name}-consumer`, private: true, type: 'module' }))
  for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text)
  return { tools, folder }
}

/** The version a package of test/runtimes/<name> installed. */
export function installedVersion(tools, packageName) {
  return JSON.parse(readFileSync(join(tools, 'node_modules', packageName, 'package.json'), 'utf8')).version
}
