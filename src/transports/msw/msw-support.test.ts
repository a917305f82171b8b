import { expect, test } from 'vitest'
import { mswProblem } from './msw-support.js'

test('msw 2.12+ on Node 20.19 and msw 3 on Node 22.12+ are fine', () => {
  expect(mswProblem('2.12.0', '20.19.0')).toBeNull()
  expect(mswProblem('2.15.0', '26.10.0')).toBeNull()
  expect(mswProblem('3.0.5', '22.12.0')).toBeNull()
  expect(mswProblem('3.0.5', '24.21.0')).toBeNull()
})

test('msw 1.x is refused in one line naming both majors to install', () => {
  expect(mswProblem('1.3.5', '20.20.2')).toBe(
    'petstore-orders-simulator: msw 1.3.5 is too old; the simulator needs msw 2.12+ or msw 3. ' +
      'Install one: npm install --save-dev msw@^3 (Node.js 22.12+) or msw@^2.12 (Node.js 20.19+).',
  )
  expect(mswProblem('2.11.9', '24.0.0')).toMatch(/msw 2\.11\.9 is too old/)
})

test('msw 3 on Node 20 or 22.11 is refused, naming msw 2 as the way out', () => {
  expect(mswProblem('3.0.0', '20.20.2')).toBe(
    'petstore-orders-simulator: msw 3.0.0 needs Node.js 22.12 or newer, and this is Node.js 20.20.2. ' +
      'Install msw 2 (npm install --save-dev msw@^2.12) or use Node.js 22.12+.',
  )
  expect(mswProblem('3.1.0', '22.11.0')).toMatch(/needs Node\.js 22\.12/)
})

test('no msw found is left to the import of msw, which names the missing package', () => {
  expect(mswProblem(null, '20.20.2')).toBeNull()
})
