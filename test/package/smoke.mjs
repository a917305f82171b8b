// Consumer smoke test: the packed tarball installed into fresh projects with a
// plain `npm install` (no flags), the way a consumer does, on today's tools:
//   Node 20 (the machine's), msw 2, vitest 4, TypeScript 5.9
//   Node 24 (from the registry), msw 3, vitest 5, TypeScript 7
// Each in an ESM package and in the CommonJS one `npm init -y` writes: one
// msw in the tree, README's vitest example type-checked with
// skipLibCheck false and run, docs/playwright.md's config and spec
// type-checked, ./server's types checked without @types/express, and
// `npx petstore-sim` up.
// Usage: npm run test:package   (needs the npm registry)
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { envWithNode, ROOT } from './registry-node.mjs'

const CONFIGS = [
  {
    label: 'Node 20, msw 2, vitest 4, TypeScript 5.9',
    node: null,
    deps: ['msw@^2.12', 'vitest@^4', 'typescript@~5.9', '@types/node@^20', '@playwright/test@^1.50'],
  },
  {
    label: 'Node 24, msw 3, vitest 5, TypeScript 7',
    node: '24',
    deps: ['msw@^3', 'vitest@^5', 'typescript@^7', '@types/node@^24', '@playwright/test@^1.50'],
  },
]
const work = mkdtempSync(join(tmpdir(), 'petstore-smoke-'))
const capture = (command, args, options) =>
  execFileSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...options })

console.log('== npm pack ==')
const tarball = join(work, capture('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT }).trim().split('\n').pop())
const listed = JSON.parse(capture('npm', ['pack', '--dry-run', '--json', '--silent'], { cwd: ROOT }))[0].files.map((file) => file.path)
const testFiles = listed.filter((path) => /(^|\/)test\/|\.test\.[cm]?[jt]s$/.test(path))
if (testFiles.length > 0) throw new Error(`The tarball holds test files: ${testFiles.join(', ')}`)
console.log(`${tarball}: ${listed.length} files, none of them tests`)

/** README's vitest example: the ts block that starts with `// orders.test.ts`. */
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
const example = /```ts\n(\/\/ orders\.test\.ts[^\n]*\n[\s\S]*?)```/.exec(readme)?.[1]
if (example === undefined) throw new Error('README.md has no ts block starting with "// orders.test.ts".')
/** docs/playwright.md's example: the ts blocks that start with `// playwright.config.ts` and `// orders.spec.ts`. */
const playwrightDoc = readFileSync(join(ROOT, 'docs/playwright.md'), 'utf8')
const playwrightFiles = ['playwright.config', 'orders.spec'].map((name) => {
  const block = new RegExp(`\`\`\`ts\n(// ${name.replace('.', '\\.')}\\.ts\n[\\s\\S]*?)\`\`\``).exec(playwrightDoc)?.[1]
  if (block === undefined) throw new Error(`docs/playwright.md has no ts block starting with "// ${name}.ts".`)
  return { name, block }
})

// What a suite that starts the HTTP server writes, against ./server's types.
const serverCheck = `import { createServer } from 'node:http'
import { createSimulatorApp, startSimulatorServer, type MountableApp, type RunningSimulator } from 'petstore-orders-simulator/server'

const { app, sim } = createSimulatorApp({ scenario: 'shipped' })
const mounted: MountableApp = app
createServer(mounted).close()
const running: RunningSimulator = await startSimulatorServer({ port: 0, scenario: 'pending' })
console.log(running.url, sim.orders().length)
await running.close()
`

for (const config of CONFIGS) {
  const env = envWithNode(config.node)
  for (const kind of ['esm', 'cjs']) {
    console.log(`\n== ${config.label}, ${kind === 'esm' ? '"type": "module"' : 'npm init -y ("type": "commonjs")'} ==`)
    const project = join(work, `${config.node ?? 'machine'}-${kind}`)
    mkdirSync(project)
    const sh = (command, args) => capture(command, args, { cwd: project, env })
    if (kind === 'esm') writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
    else sh('npm', ['init', '-y', '--silent'])
    console.log(sh('node', ['--version']).trim())
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...config.deps])
    const mswCopies = sh('npm', ['ls', 'msw', '--all', '--parseable']).trim().split('\n').filter(Boolean)
    if (mswCopies.length !== 1) throw new Error(`Expected one msw, found: ${mswCopies.join(', ')}`)
    const installed = Object.fromEntries(
      ['msw', 'vitest', 'typescript'].map((name) => [
        name,
        JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')).version,
      ]),
    )
    console.log(`one msw (${mswCopies[0]}); ${JSON.stringify(installed)}`)

    const testFile = kind === 'esm' ? 'orders.test.ts' : 'orders.test.mts'
    const checkFile = kind === 'esm' ? 'server-types.ts' : 'server-types.mts'
    writeFileSync(join(project, testFile), example)
    writeFileSync(join(project, checkFile), serverCheck)
    const playwrightChecked = playwrightFiles.map(({ name, block }) => {
      const file = `${name}.${kind === 'esm' ? 'ts' : 'mts'}`
      writeFileSync(join(project, file), block)
      return file
    })
    const module = kind === 'esm' ? 'NodeNext' : 'node16'
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module,
          moduleResolution: module,
          target: 'ES2022',
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
        },
        include: [testFile, checkFile, ...playwrightChecked],
      }),
    )
    const typesOfExpress = sh('npm', ['ls', '@types/express', '--parseable']).trim()
    if (typesOfExpress !== '') throw new Error(`@types/express is installed (${typesOfExpress}): the ./server check would prove nothing`)
    console.log(`tsc (${module}, skipLibCheck false): ${[testFile, checkFile, ...playwrightChecked].join(', ')}`)
    sh('npx', ['tsc', '-p', 'tsconfig.json'])
    console.log(`vitest run ${testFile}`)
    console.log(
      sh('npx', ['vitest', 'run', testFile])
        .trim()
        .split('\n')
        .filter((line) => /Tests|passed|failed/.test(line))
        .join('\n'),
    )
  }

  console.log(`\n== ${config.label}: npx petstore-sim --port 0 ==`)
  const child = spawn('npx', ['petstore-sim', '--port', '0', '--quiet'], {
    cwd: join(work, `${config.node ?? 'machine'}-esm`),
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const ready = await new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`no ready line in 20 s: ${out}`)), 20_000)
    child.stdout.on('data', (chunk) => {
      out += chunk
      const line = /Petstore simulator ready at .*/.exec(out)
      if (line) {
        clearTimeout(timer)
        resolve(line[0])
      }
    })
  })
  process.kill(-child.pid, 'SIGTERM')
  console.log(ready)
}
console.log(`\nConsumer smoke test passed (${work}).`)
