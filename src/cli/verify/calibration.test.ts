import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { parseScenario } from '../../core/scenario/parse-scenario.js'
import { calibratedScenario, mergeCalibrations } from './calibration.js'

test('folds the command line options into the scenario in force, then the switches, into a scenario that loads', () => {
  const scenario = calibratedScenario(
    { scenario: 'default', seed: 7, afterCancel: 'keep', deprecation: { deprecatedAt: '2025-01-01' } },
    { exposeStatus: true, afterCancel: 'remove', deprecation: { sunsetAt: '2028-01-01T00:00:00.000Z' }, pets: { '7': { id: 7 } } },
  )
  expect(scenario).toMatchObject({
    name: 'default-calibrated',
    exposeStatus: true,
    afterCancel: 'remove',
    deprecation: { deprecatedAt: '2025-01-01T00:00:00.000Z', sunsetAt: '2028-01-01T00:00:00.000Z' },
    generate: { seed: 7 },
  })
  // The scenario's own pets stay; a switch adds the service's.
  expect(Object.keys(scenario.pets ?? {})).toEqual(['1', '2', '3', '7'])
  expect(() => parseScenario(JSON.parse(JSON.stringify(scenario)), 'calibrated')).not.toThrow()
})

test('a calibrated scenario file calibrated again keeps its name', () => {
  const once = calibratedScenario({ scenario: 'pending' }, {})
  expect(once.name).toBe('pending-calibrated')
  const folder = mkdtempSync(join(tmpdir(), 'calibration-'))
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
  const file = join(folder, 'pending-calibrated.json')
  writeFileSync(file, JSON.stringify(once))
  expect(calibratedScenario({ scenario: file }, { exposeStatus: true })).toMatchObject({ name: 'pending-calibrated', exposeStatus: true })
})

test('mergeCalibrations merges deprecation date by date', () => {
  expect(mergeCalibrations({ deprecation: { deprecatedAt: 'a' } }, { deprecation: { sunsetAt: 'b' } })).toEqual({
    deprecation: { deprecatedAt: 'a', sunsetAt: 'b' },
  })
})
