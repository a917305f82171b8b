import { expect, test } from 'vitest'
import { parseVerifyCommandLine } from './verify-command-line.js'

const KEY = 'k3y-for-tests'

test('reads the target as a base URL, the simulator flags as the server reads them, and the defaults', () => {
  const command = parseVerifyCommandLine(
    ['--target', 'https://api.example.test/v1/', '--key', KEY, '--after-cancel', 'remove', '--pending-order', '007'],
    { PETSTORE_SIM_EXPOSE_STATUS: '1' },
  )
  expect(command).toMatchObject({
    kind: 'verify',
    target: 'https://api.example.test/v1',
    rate: 5,
    timeoutMs: 10_000,
    json: false,
    simulator: { afterCancel: 'remove', exposeStatus: true },
    pendingOrder: '7',
  })
})

test('the key may start with a dash, and comes from PETSTORE_SIM_VERIFY_KEY when not given', () => {
  expect(parseVerifyCommandLine(['--target', 'http://h/v1', '--key', '-dash'], {})).toMatchObject({ key: '-dash' })
  expect(parseVerifyCommandLine(['--target', 'http://h/v1'], { PETSTORE_SIM_VERIFY_KEY: KEY })).toMatchObject({ key: KEY })
})

test('a server flag verify does not take is refused, and a message never quotes the key', () => {
  expect(() => parseVerifyCommandLine(['--target', 'http://h/v1', '--key', KEY, '--port', '1'], {})).toThrow(
    /Unknown or incomplete option --port/,
  )
  expect(() => parseVerifyCommandLine(['--target', 'http://h/v1', '--key', `${KEY}!`], {})).toThrow(/RFC 6750/)
  try {
    parseVerifyCommandLine(['--target', 'http://h/v1', '--key', `${KEY}!`], {})
  } catch (error) {
    expect(String(error)).not.toContain(KEY)
  }
})

test('--rate and --timeout take numbers within bounds', () => {
  expect(parseVerifyCommandLine(['--target', 'http://h/v1', '--key', KEY, '--rate', '0.5', '--timeout', '2'], {})).toMatchObject({
    rate: 0.5,
    timeoutMs: 2000,
  })
  expect(() => parseVerifyCommandLine(['--target', 'http://h/v1', '--key', KEY, '--timeout', '-1'], {})).toThrow(
    /--timeout must be a number/,
  )
})
