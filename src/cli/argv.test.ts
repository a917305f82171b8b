import { describe, expect, test } from 'vitest'
import { joinDashedValues, unknownFlagHint } from './argv.js'

describe('unknownFlagHint', () => {
  test.each([
    [['--prot', '4011'], ' Did you mean --port?'],
    [['--scenaro=shipped'], ' Did you mean --scenario?'],
    [['--port', '0', '--latncy', '5'], ' Did you mean --latency?'],
    [['--xyzzy'], ''],
    [['--port', '0'], ''],
  ])('%j gives %j', (argv, hint) => {
    expect(unknownFlagHint(argv)).toBe(hint)
  })
})

describe('joinDashedValues', () => {
  test('joins a dash-led value to the flag that takes it, so the flag reports it', () => {
    expect(joinDashedValues(['--seed', '-1', '--port', '0'])).toEqual(['--seed=-1', '--port', '0'])
  })

  test('leaves a flag after a boolean flag, and a flag given as a value, alone', () => {
    expect(joinDashedValues(['--quiet', '--port', '0'])).toEqual(['--quiet', '--port', '0'])
    expect(joinDashedValues(['--scenario', '--port'])).toEqual(['--scenario', '--port'])
  })
})
