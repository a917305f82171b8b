import { execFileSync } from 'node:child_process'
import { expect, test } from 'vitest'
import { ROOT } from './support/cli-process.js'

test('exactly one copy of msw is installed: handlers built by one copy are the ones every runtime executes', () => {
  const paths = execFileSync('npm', ['ls', 'msw', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean)
  expect(paths).toEqual([expect.stringMatching(/node_modules\/msw$/)])
})
