// Consumer smoke test: the packed tarball, installed into a fresh project
// beside msw, vitest and typescript, the way a consumer suite uses it.
// Usage: npm run test:package   (needs the npm registry)
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const project = mkdtempSync(join(tmpdir(), 'petstore-smoke-'))
const run = (command, args, cwd = project) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })

console.log('== npm pack ==')
const tarball = run('npm', ['pack', '--silent', '--pack-destination', project], root).trim().split('\n').pop()
const listed = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--silent'], root))[0].files.map((file) => file.path)
const testFiles = listed.filter((path) => /(^|\/)test\/|\.test\.[cm]?[jt]s$/.test(path))
if (testFiles.length > 0) throw new Error(`The tarball holds test files: ${testFiles.join(', ')}`)
console.log(`${tarball}: ${listed.length} files, none of them tests`)

console.log('== install into a fresh project ==')
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
run('npm', ['install', '--no-audit', '--no-fund', '--silent', join(project, tarball), 'msw@^2.12', 'vitest@^4', 'typescript@^5', '@types/node@^20'])
const mswCopies = run('npm', ['ls', 'msw', '--all', '--parseable']).trim().split('\n').filter(Boolean)
if (mswCopies.length !== 1) throw new Error(`Expected one msw, found: ${mswCopies.join(', ')}`)

writeFileSync(
  join(project, 'orders.test.ts'),
  `import { afterAll, beforeAll, expect, test } from 'vitest'
import { createSimulator, ErrorCode, type Order } from 'petstore-orders-simulator'
import { setupSimulatorServer } from 'petstore-orders-simulator/node'

const { sim, server } = setupSimulatorServer({ scenario: 'pending' })
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())
const cancel = (id: number) => fetch(\`https://api.petstore.example/v1/store/orders/\${id}\`, { method: 'DELETE', headers: { Authorization: 'Bearer petstore-test-key' } })

test('pending, shipped, missing, bad-key', async () => {
  expect((await cancel(1)).status).toBe(204)
  const first: Order | undefined = sim.orders()[0]
  expect(first?.status).toBe('cancelled')
  sim.reset('shipped')
  const shipped = await cancel(1)
  expect(shipped.status).toBe(409)
  expect((await shipped.json()).code).toBe(ErrorCode.OrderAlreadyShipped)
  sim.reset('missing')
  expect((await cancel(1)).status).toBe(404)
  sim.reset('bad-key')
  expect((await cancel(1)).status).toBe(401)
  expect(createSimulator().orders().length).toBeGreaterThanOrEqual(12)
})
`,
)
writeFileSync(
  join(project, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, skipLibCheck: false, types: ['node'] }, include: ['orders.test.ts'] }),
)

console.log('== vitest in the consumer ==')
run('npx', ['vitest', 'run'])
console.log('== tsc --noEmit on the consumer ==')
run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'])

console.log('== npx petstore-sim --port 0 ==')
const child = spawn('npx', ['petstore-sim', '--port', '0', '--quiet'], { cwd: project, detached: true, stdio: ['ignore', 'pipe', 'inherit'] })
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
console.log(`Consumer smoke test passed (${readdirSync(project).length} entries in ${project}).`)
