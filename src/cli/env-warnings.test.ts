import { describe, expect, test } from 'vitest'
import { knownVariables, unknownVariableWarnings } from './env-warnings.js'
import { FLAGS, VERIFY_FLAGS } from './flags.js'

describe('knownVariables', () => {
  test("is every flag's variable, the server's and verify's, the Playwright fixture's PETSTORE_SIM_URL and record's key", () => {
    const fromFlags = [...FLAGS, ...VERIFY_FLAGS].map((flag) => flag.env).filter((name) => name !== '')
    expect(new Set(knownVariables())).toEqual(new Set([...fromFlags, 'PETSTORE_SIM_URL', 'PETSTORE_SIM_RECORD_KEY']))
  })
})

describe('unknownVariableWarnings', () => {
  test('names each unknown PETSTORE_SIM_* variable once, with the closest known one when it is close', () => {
    const env = { PETSTORE_SIM_PORTT: '1', PETSTORE_SIM_QUIET: '1', PETSTORE_SIM_WHATEVER: '', PATH: '/bin', PETSTORE_SIMPORT: '1' }
    expect(unknownVariableWarnings(env, false)).toEqual([
      'Warning: PETSTORE_SIM_PORTT is set, but petstore-sim reads no such variable (did you mean PETSTORE_SIM_PORT?); it has no effect.',
      'Warning: PETSTORE_SIM_WHATEVER is set, but petstore-sim reads no such variable; it has no effect.',
    ])
  })

  test('a name in another case is read where variables ignore case (Windows), and is a typo elsewhere', () => {
    expect(unknownVariableWarnings({ Petstore_Sim_Port: '1' }, true)).toEqual([])
    expect(unknownVariableWarnings({ Petstore_Sim_Port: '1' }, false)).toEqual([
      'Warning: Petstore_Sim_Port is set, but petstore-sim reads no such variable (did you mean PETSTORE_SIM_PORT?); it has no effect.',
    ])
  })

  test('a name holding a control character is shown escaped', () => {
    expect(unknownVariableWarnings({ 'PETSTORE_SIM_\u001b[2J': '1' }, false)[0]).toContain('PETSTORE_SIM_\\x1b[2J is set')
  })
})
