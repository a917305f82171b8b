import { execFile } from 'node:child_process'
import { expect, test } from 'vitest'
import { ROOT } from './support/cli-process.js'

// Apart from test/lifecycle.test.ts, which runs in process only (npm run test:quick): this one starts Node on dist/.
test('a pending transition does not keep a Node process alive', async () => {
  const script = `import('./dist/src/index.js').then(({ createSimulator }) => { createSimulator({ scenario: 'pending', lifecycle: { shipAfter: '1h' } }); console.log('made') })`
  // A process kept alive by the hour's timer would be killed at the timeout, and execFile would fail.
  const output = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, timeout: 20_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  )
  expect(output.trim()).toBe('made')
}, 30_000)
