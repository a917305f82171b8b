// The shapes of the scenarios as files: listed, saved, read and exported (admin components, as admin-schemas.ts's), and the health check's.
import * as v from 'valibot'
import { described, int, nullable, optional } from './schema-parts.js'

const folderOnly = 'For a folder scenario'
export const ScenarioName = described(
  v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,63}$/)),
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

const objects = v.array(v.looseObject({}))
export const ScenarioFile = described(
  v.looseObject({
    $schema: v.optional(v.string()),
    name: ScenarioName,
    description: v.optional(v.string()),
    apiKeys: v.optional(v.array(v.string())),
    orders: v.optional(v.array(v.looseObject({ id: v.unknown() }))),
    generate: v.optional(v.looseObject({})),
    pets: v.optional(v.looseObject({})),
    exposeStatus: v.optional(v.boolean()),
    afterCancel: v.optional(v.picklist(['keep', 'remove'])),
    faults: v.optional(objects),
    lifecycle: v.optional(v.looseObject({})),
    deprecation: v.optional(v.looseObject({})),
  }),
  'A scenario file, as scenarios/scenario.schema.json describes it (the package exports it as petstore-orders-simulator/scenarios/scenario.schema.json).',
)

export const Health = v.strictObject({
  status: described(v.picklist(['ok', 'draining']), 'ok while it serves; draining once it is stopping (SIGTERM).'),
  version: described(v.string(), 'The package version of the simulator.'),
})
