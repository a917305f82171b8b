import { writeFileSync } from 'node:fs'
import { stringifyExactJson } from '../../core/exact-json.js'
import type { Scenario } from '../../core/scenario/scenario.js'
import { MAX_SCENARIO_FILE_BYTES } from '../../core/scenario/scenario-file.js'
import { systemErrorCode } from '../../core/system-error-code.js'
import { escapeControls } from '../terminal-text.js'

/** Where a command writes, so tests and the CLI share it. */
export interface CommandOutput {
  stdout(text: string): void
  stderr(text: string): void
}

/** What a refused write says, for the codes a user can act on. */
const PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOSPC: 'no space left on the device',
}

/**
 * Writes a scenario as its file's text to `file` and says so on stdout with
 * its description, or writes the text itself to stdout when there is no
 * file. A scenario too large for the simulator to read is not written.
 * Returns the one line that says why nothing was written, else undefined.
 */
export function writeScenarioOutput(file: string | undefined, scenario: Scenario, out: CommandOutput): string | undefined {
  const text = `${stringifyExactJson(scenario, 2)}\n`
  const bytes = Buffer.byteLength(text)
  if (bytes > MAX_SCENARIO_FILE_BYTES)
    return `The scenario would be ${bytes} bytes; the largest scenario file the simulator reads is ${MAX_SCENARIO_FILE_BYTES} (32 MiB). Nothing was written.`
  if (file === undefined) {
    out.stdout(text)
    return undefined
  }
  try {
    writeFileSync(file, text)
  } catch (error) {
    const code = systemErrorCode(error)
    return `Failed to write ${file}: ${(code === undefined ? undefined : PROBLEMS[code]) ?? code ?? String(error)}.`
  }
  out.stdout(`${escapeControls(`Wrote ${file}: ${scenario.description ?? ''}`)}\n`)
  return undefined
}
