import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, test, vi } from 'vitest'
import { startSimulatorServer } from '../src/server.js'
import { ROOT } from './support/cli-process.js'
import {
  asEsModules,
  blockFileName,
  type DocBlock,
  docPages,
  jestProjects,
  readBlocks,
  SHELL,
  shellSteps,
  TYPESCRIPT,
  vitestExample,
} from './support/doc-blocks.js'
import { runJest } from './support/jest-project.js'
import { linkedProject, packageDir } from './support/linked-project.js'

// Each test runs a documented command, project or program: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

// The doc test (issue 17, item 12): every shell and TypeScript block of README.md and docs/ runs here,
// so a step a newcomer copies cannot fail unnoticed. What "runs" means is said in support/doc-blocks.ts.
// Each page runs in its own folder, set up as a project that installed the package (and msw) beside it;
// `npm start` and `npm run` lines are clone steps and run in the repository. A shell block talks to a
// fresh server of its own: the 127.0.0.1:4010 it names is replaced by that server's address, and
// `--port <n>` by `--port 0`, so nothing depends on which ports are free. The folders stay in .doc-test/ (ignored by git) for a look.

const run = promisify(execFile)
const WORK = join(ROOT, '.doc-test')
const STEP = '@@doc-test-step@@'
const READY = /Petstore simulator ready at \S+/
const PATH = `${join(dirname(packageDir('vitest')), '.bin')}:${process.env['PATH'] ?? ''}`
const pages = docPages(ROOT).map((page) => ({ page, blocks: readBlocks(ROOT, page) }))
const allBlocks = pages.flatMap(({ blocks }) => blocks)
const where = (block: DocBlock) => `${block.page}:${block.line}`

/** A folder like a project that ran `npm install --save-dev msw petstore-orders-simulator`, with their commands. */
function projectFolder(page: string): string {
  const devDependencies = { msw: '*', 'petstore-orders-simulator': '*' }
  const folder = linkedProject(join(WORK, page.replace(/[/.]/g, '-')), 'module', {}, { name: 'doc-test-app', devDependencies })
  mkdirSync(join(folder, 'node_modules/.bin'))
  symlinkSync(join(ROOT, 'dist/cli.mjs'), join(folder, 'node_modules/.bin/petstore-sim'))
  symlinkSync(join(packageDir('msw'), 'cli/index.js'), join(folder, 'node_modules/.bin/msw'))
  return folder
}

const onFreePorts = (code: string, port: number) =>
  code.replaceAll('127.0.0.1:4010', `127.0.0.1:${port}`).replace(/--port \d+/g, '--port 0')

async function runShell(block: DocBlock, folder: string): Promise<void> {
  const steps = shellSteps(block.code)
  const server = await startSimulatorServer({ port: 0 })
  try {
    const script = ['set -euo pipefail', ...steps.map((step) => `${onFreePorts(step.command, server.port)}printf '\\n%s\\n' '${STEP}'`)]
    const { stdout } = await run('bash', ['-c', script.join('\n')], { cwd: folder, env: { ...process.env, PATH }, timeout: 30_000 })
    const outputs = stdout.split(`\n${STEP}\n`)
    steps.forEach((step, index) => {
      for (const text of step.expected) expect(outputs[index], `${where(block)}: the output of ${step.command.trim()}`).toContain(text)
    })
  } finally {
    await server.close()
  }
}

/** Runs each command of a `server` block, waits for the ready line, then stops it. */
async function runServers(block: DocBlock, folder: string): Promise<void> {
  for (const step of shellSteps(block.code)) {
    const command = onFreePorts(step.command, 0).trim()
    const cwd = /^npm (start|run)\b/.test(command) ? ROOT : folder
    const child = spawn('bash', ['-c', command], { cwd, env: { ...process.env, PATH, PETSTORE_SIM_PORT: '0' }, detached: true })
    let output = ''
    const ready = await new Promise<string | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 20_000)
      const read = (chunk: Buffer) => {
        output += chunk.toString()
        const line = READY.exec(output)?.[0]
        if (line !== undefined) {
          clearTimeout(timer)
          resolve(line)
        }
      }
      child.stdout.on('data', read)
      child.stderr.on('data', read)
      child.on('close', () => resolve(null))
    })
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM')
    expect(ready, `${where(block)}: ${command} printed\n${output}`).toMatch(READY)
  }
}

function writeFile(block: DocBlock, folder: string, name: string): void {
  writeFileSync(join(folder, name), block.code)
  if (block.language !== 'json') return
  const value = JSON.parse(block.code) as { $schema?: string }
  if (value.$schema !== undefined) expect(existsSync(join(folder, value.$schema)), `${where(block)}: "$schema" from ${name}`).toBe(true)
}

test('every fence names its language, and every doc-test marker is one the doc test knows', () => {
  expect(allBlocks.length).toBeGreaterThan(10)
  for (const block of allBlocks) {
    expect(block.language, `${where(block)}: a fence without a language`).not.toBe('')
    expect(block.marker.kind, `${where(block)}: ${JSON.stringify(block.marker)}`).not.toBe('unknown')
  }
})

test('every relative link of README and docs/ reaches a file of the repository', () => {
  for (const { page } of pages) {
    const text = readFileSync(join(ROOT, page), 'utf8')
    for (const [, target] of text.matchAll(/\]\((?!https?:|#)([^)#\s]+)(?:#[^)]*)?\)/g)) {
      expect(existsSync(join(ROOT, dirname(page), target ?? '')), `${page} links ${target}`).toBe(true)
    }
  }
})

const runsShell = (block: DocBlock) => (SHELL.has(block.language) && block.marker.kind !== 'skip') || block.marker.kind === 'file'
describe.each(pages.filter(({ blocks }) => blocks.some(runsShell)))('the shell blocks of $page, in order', ({ page, blocks }) => {
  let folder = ''
  beforeAll(() => {
    folder = projectFolder(page)
  })
  for (const block of blocks) {
    const { marker } = block
    if (marker.kind === 'file') test(`line ${block.line}: ${marker.name} is written`, () => writeFile(block, folder, marker.name))
    if (!SHELL.has(block.language) || marker.kind === 'skip') continue
    if (marker.kind === 'server') test(`line ${block.line}: each command starts the server`, () => runServers(block, folder), 60_000)
    else test(`line ${block.line}: runs, and prints what its "# =>" lines say`, () => runShell(block, folder), 40_000)
  }
})

interface VitestReport {
  testResults: { name: string; status: string; message: string; assertionResults: { status: string; fullName: string }[] }[]
}

describe('the TypeScript blocks', () => {
  const folder = join(WORK, 'typescript')
  const files = allBlocks
    .filter((block) => TYPESCRIPT.has(block.language) && (block.marker.kind === 'run' || block.marker.kind === 'typecheck'))
    .map((block, index) => {
      const named = /^\/\/ ([\w.-]+\.ts)\b/.exec(block.code)?.[1] ?? 'block.ts'
      const runs = block.marker.kind === 'run'
      // Run blocks become test files; a block with no test of its own gets one, so its top-level code runs.
      const file = `${basename(block.page, '.md')}-${index}-${runs ? named.replace(/(\.test)?\.ts$/, '.test.ts') : named}`
      const code =
        runs && !/\btest\(/.test(block.code)
          ? `${block.code}\nimport { test as docTest } from 'vitest'\ndocTest('runs', () => {})\n`
          : block.code
      return { block, file, code, runs }
    })
  let typeErrors = ''
  let report: VitestReport = { testResults: [] }

  beforeAll(async () => {
    projectFolder('typescript')
    for (const { file, code } of files) writeFileSync(join(folder, file), code)
    const compilerOptions = {
      strict: true,
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      lib: ['ES2022', 'DOM'],
      types: ['node'],
      skipLibCheck: true,
      noEmit: true,
    }
    writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }))
    writeFileSync(join(folder, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'], testTimeout: 15000 } }\n")
    const tsc = join(packageDir('typescript'), 'bin/tsc')
    typeErrors = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: folder }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    )
    const vitest = join(packageDir('vitest'), 'vitest.mjs')
    await run(process.execPath, [vitest, 'run', '--reporter=json', '--outputFile=report.json'], { cwd: folder, timeout: 120_000 }).catch(
      () => undefined,
    )
    if (existsSync(join(folder, 'report.json'))) report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as VitestReport
  }, 180_000)

  for (const { block, file, runs } of files) {
    test(`${where(block)} (${file}) type-checks${runs ? ' and its tests pass' : ''}`, () => {
      const errors = typeErrors.split('\n').filter((line) => line.startsWith(file))
      expect(errors, `${where(block)}: tsc says`).toEqual([])
      if (!runs) return
      const result = report.testResults.find((candidate) => candidate.name === join(folder, file))
      expect(result, `${where(block)}: vitest did not report ${file}`).toBeDefined()
      expect(result?.message ?? '', `${where(block)}: the file failed`).toBe('')
      expect(result?.assertionResults.length).toBeGreaterThan(0)
      for (const assertion of result?.assertionResults ?? [])
        expect(assertion.status, `${where(block)}: ${assertion.fullName}`).toBe('passed')
    })
  }
})

function expectJestPassed(run: Awaited<ReturnType<typeof runJest>>, label: string, tests: number): void {
  expect(run.code, `${label}: Jest printed\n${run.output}`).toBe(0)
  expect(run.report?.numFailedTests, label).toBe(0)
  expect(run.report?.numPassedTests, label).toBe(tests)
}

describe('The Jest examples of docs/test-runners.md, through the preset', () => {
  const projects = jestProjects(allBlocks)
  const testsInExample = [...vitestExample(allBlocks).code.matchAll(/^test\(/gm)].length

  test('there is a CommonJS and a TypeScript project, and docs/test-runners.md says how a "type": "module" package differs', () => {
    expect([...projects.keys()].sort()).toEqual(['commonjs', 'typescript'])
    expect(testsInExample).toBe(3)
    const jestText = /^## Jest 30\n([\s\S]*?)^## node:test$/m.exec(readFileSync(join(ROOT, 'docs/test-runners.md'), 'utf8'))?.[1] ?? ''
    for (const words of [
      'export default { preset:',
      "import { setupSimulatorServer } from\n'petstore-orders-simulator/node'",
      'NODE_OPTIONS=--experimental-vm-modules npx jest',
    ])
      expect(jestText).toContain(words)
  })

  for (const [project, { first, files }] of projects) {
    test(`${where(first)}: the ${project} project passes in Jest's default (CommonJS) mode`, async () => {
      const folder = linkedProject(join(WORK, `jest-${project}`), 'commonjs', files)
      expectJestPassed(await runJest(folder), project, testsInExample)
    }, 120_000)
  }

  test("the commonjs project, made ES modules as README says, passes in Jest's ES module mode", async () => {
    const files = asEsModules(projects.get('commonjs')?.files ?? {})
    expect(files['orders.test.js']).toMatch(/^\/\/ orders\.test\.js\nimport \{ setupSimulatorServer \}/)
    const folder = linkedProject(join(WORK, 'jest-esm'), 'module', files)
    expectJestPassed(await runJest(folder, { esm: true }), 'esm', testsInExample)
  }, 120_000)

  test('the typescript project type-checks, module nodenext (test:package checks it with skipLibCheck off)', async () => {
    const folder = linkedProject(join(WORK, 'jest-typescript-types'), 'commonjs', projects.get('typescript')?.files ?? {})
    const compilerOptions = { strict: true, module: 'nodenext', target: 'ES2022', noEmit: true, skipLibCheck: true, types: ['node'] }
    writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }))
    const tsc = join(packageDir('typescript'), 'bin/tsc')
    const errors = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: folder }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    )
    expect(errors).toBe('')
  }, 120_000)
})

describe('the node:test examples (test-runners.md, coverage.md)', () => {
  const blocks = allBlocks.filter((block) => block.marker.kind === 'node-test')
  test('there are two', () => expect(blocks).toHaveLength(2))
  for (const block of blocks) {
    test(`${where(block)} passes with node --test`, async () => {
      const name = blockFileName(block) ?? 'orders.test.mjs'
      const folder = linkedProject(join(WORK, 'node-test'), 'commonjs', { [name]: block.code })
      const { stdout } = await run(process.execPath, ['--test', name], { cwd: folder, timeout: 60_000 })
      expect(stdout).toMatch(/\bpass 2\b/)
      expect(stdout).toMatch(/\bfail 0\b/)
    }, 60_000)
  }
})
