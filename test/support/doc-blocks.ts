import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * What a `<!-- doc-test: ... -->` line just above a fence asks of its block:
 * - `skip: <why>`: not run (the reason is required, and said where a reader sees it);
 * - `server`: each command starts the server, which must print its ready line;
 * - `file <name>`: written to the page's folder for the blocks after it, not run;
 * - `typecheck`: TypeScript that is type-checked but not run (browser or Playwright code);
 * - `jest <project>`: a file of a Jest project (its config, or a test), named by its first line
 *   (`// orders.test.js`); a test that has no `test(` of its own takes the tests of README's vitest
 *   example, from `const API` on. Each project is type-checked where it is TypeScript, and run by Jest;
 * - `node-test`: run with `node --test`;
 * - `vitest-browser`: vitest browser mode, run in Chromium by test/package/smoke.mjs (it needs vitest 5);
 * - `runtime <name>`: a file of a project that test/runtimes/<name>/ runs with its own tools (Bun, Deno,
 *   Mocha, fetch clients), named by its first line.
 * Without one, a shell block runs against a fresh server and a TypeScript block is type-checked and run.
 */
export type DocMarker =
  | { kind: 'run' }
  | { kind: 'skip'; reason: string }
  | { kind: 'server' }
  | { kind: 'file'; name: string }
  | { kind: 'typecheck' }
  | { kind: 'jest'; project: string }
  | { kind: 'node-test' }
  | { kind: 'vitest-browser' }
  | { kind: 'runtime'; name: string }

export interface DocBlock {
  /** The page, relative to the repository: `README.md`, `docs/server.md`. */
  page: string
  /** The line of the opening fence, 1-based. */
  line: number
  /** The fence's info string: `sh`, `ts`, `json`, `text`, or '' when missing. */
  language: string
  marker: DocMarker | { kind: 'unknown'; text: string }
  code: string
}

export const SHELL = new Set(['sh', 'bash', 'shell'])
export const TYPESCRIPT = new Set(['ts', 'typescript'])

function readMarker(text: string | undefined): DocBlock['marker'] {
  const body = text === undefined ? undefined : /^<!-- doc-test: (.*) -->$/.exec(text.trim())?.[1]?.trim()
  if (body === undefined) return { kind: 'run' }
  if (body === 'server' || body === 'typecheck' || body === 'node-test' || body === 'vitest-browser') return { kind: body }
  const jest = /^jest ([\w-]+)$/.exec(body)
  if (jest?.[1] !== undefined) return { kind: 'jest', project: jest[1] }
  const skip = /^skip: (\S.*)$/.exec(body)
  if (skip?.[1] !== undefined) return { kind: 'skip', reason: skip[1] }
  const runtime = /^runtime (bun|deno|mocha|clients)$/.exec(body)
  if (runtime?.[1] !== undefined) return { kind: 'runtime', name: runtime[1] }
  const file = /^file ([\w.-]+)$/.exec(body)
  if (file?.[1] !== undefined) return { kind: 'file', name: file[1] }
  return { kind: 'unknown', text: body }
}

/** The fenced blocks of one Markdown page, in order, each with the marker above it. */
export function readBlocks(root: string, page: string): DocBlock[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n')
  const blocks: DocBlock[] = []
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)\s*$/.exec(lines[index] ?? '')
    if (open === null) continue
    const close = lines.findIndex((line, at) => at > index && line.startsWith('```'))
    if (close === -1) throw new Error(`${page}:${index + 1}: a fence that never closes`)
    blocks.push({
      page,
      line: index + 1,
      language: open[1] ?? '',
      marker: readMarker(lines[index - 1]),
      code: `${lines.slice(index + 1, close).join('\n')}\n`,
    })
    index = close
  }
  return blocks
}

/** The file a block stands for, from its first line (`// orders.test.js`), or null. */
export function blockFileName(block: DocBlock): string | null {
  return /^\/\/ ([\w.-]+\.[cm]?[jt]s)\b/.exec(block.code)?.[1] ?? null
}

/** A test file of a runner: `header` (a block with no tests) followed by the tests of `example`, from `const API` on. */
export function withTestsOf(header: string, example: string): string {
  if (/\btest\(/.test(header)) return header
  const tests = example.indexOf('const API')
  if (tests === -1) throw new Error('The vitest example has no "const API" line to take its tests from.')
  return `${header}\n${example.slice(tests)}`
}

/** README's vitest example: the file the other runners take their tests from. */
export function vitestExample(blocks: readonly DocBlock[]): DocBlock {
  const example = blocks.find(
    (block) => block.page === 'README.md' && block.marker.kind === 'run' && blockFileName(block) === 'orders.test.ts',
  )
  if (example === undefined) throw new Error('README.md has no TypeScript block that starts with "// orders.test.ts" and runs.')
  return example
}

/** The files of each `jest <project>` group, in page order, test files completed with the vitest example's tests. */
export function jestProjects(blocks: readonly DocBlock[]): Map<string, { first: DocBlock; files: Record<string, string> }> {
  const example = vitestExample(blocks).code
  const projects = new Map<string, { first: DocBlock; files: Record<string, string> }>()
  for (const block of blocks) {
    if (block.marker.kind !== 'jest') continue
    const name = blockFileName(block)
    if (name === null) throw new Error(`${block.page}:${block.line}: a Jest block names its file on its first line`)
    const project = projects.get(block.marker.project) ?? { first: block, files: {} }
    project.files[name] = name.includes('.test.') ? withTestsOf(block.code, example) : block.code
    projects.set(block.marker.project, project)
  }
  return projects
}

/** README's rule for a package with "type": "module": the Jest config exported, the require line an import. */
export function asEsModules(files: Readonly<Record<string, string>>): Record<string, string> {
  const required = "const { setupSimulatorServer } = require('petstore-orders-simulator/node')"
  const imported = "import { setupSimulatorServer } from 'petstore-orders-simulator/node'"
  return Object.fromEntries(
    Object.entries(files).map(([name, text]) => [name, text.replace('module.exports = ', 'export default ').replace(required, imported)]),
  )
}

/** README.md and every page of docs/, README first. */
export function docPages(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
  return ['README.md', ...docs.map((name) => `docs/${name}`)]
}

/** One command of a shell block, with the `# => text` lines under it: text its output must contain. */
export interface ShellStep {
  command: string
  expected: string[]
}

/** Splits a shell block into its commands (a trailing `\` continues one), each with its expectations. */
export function shellSteps(code: string): ShellStep[] {
  const steps: ShellStep[] = []
  let pending = ''
  for (const line of code.split('\n')) {
    const expected = /^# => (.*)$/.exec(line)?.[1]
    if (expected !== undefined) {
      const last = steps.at(-1)
      if (last === undefined) throw new Error(`"# => ${expected}" comes before any command`)
      last.expected.push(expected)
      continue
    }
    if (pending === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue
    pending += `${line}\n`
    if (!line.endsWith('\\')) {
      steps.push({ command: pending, expected: [] })
      pending = ''
    }
  }
  return steps
}
