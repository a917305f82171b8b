// The shapes of the scenarios as files: listed, saved, read and exported (admin components, as admin-schemas.ts's), and the health check's.
import * as v from 'valibot'
import type { Scenario } from '../scenario/scenario.js'
import { ScenarioName as Name, ScenarioSchema } from '../scenario/scenario-schema.js'
import { described, int, nullable, optional } from './schema-parts.js'

const folderOnly = 'For a folder scenario'
export const ScenarioName = described(
  Name,
  '1 to 64 lower-case letters, digits and dashes, starting with a letter or digit: also the file name, <name>.json.',
)
export const ScenarioSummary = v.strictObject({
  name: described(v.string(), 'What a reset names.'),
  description: v.string(),
  builtin: described(v.boolean(), 'true for a built-in scenario.'),
  source: optional(
    v.literal('folder'),
    'Only on a file of the scenarios folder (--scenarios-dir), which also carries file, error and line.',
  ),
  current: described(v.boolean(), 'Whether it is loaded in this state now.'),
  file: optional(v.string(), `${folderOnly}: its file in the folder, <name>.json.`),
  error: optional(
    nullable(
      v.string(),
      `${folderOnly}: why it does not load (not JSON, not a valid scenario, a name that differs from the file's or is a built-in one, too large), or null. One that does not load is listed, never offered as current.`,
    ),
  ),
  line: optional(nullable(int(1), `${folderOnly} whose JSON does not parse: the line where it stops; else null.`)),
})

export const SaveScenarioRequest = v.strictObject({
  name: ScenarioName,
  description: optional(v.string(), 'One line for people. Default: says which scenario the state came from.'),
  overwrite: optional(v.boolean(), 'Replace a file of that name (default false: 409 scenario_exists).'),
})

/**
 * A scenario file as it is written (the admin client's type of one: what the loader reads, not what it
 * makes of it). The document's component is scenarios/scenario.schema.json itself (admin-document.ts).
 */
export const ScenarioFile = ScenarioSchema as unknown as v.GenericSchema<Scenario, Scenario>

export const Health = v.strictObject({
  status: described(v.picklist(['ok', 'draining']), 'ok while it serves; draining once it is stopping (SIGTERM).'),
  version: described(v.string(), 'The package version of the simulator.'),
})
