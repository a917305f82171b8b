import { parseExactJsonFile } from '../exact-json.js'
import { systemErrorCode } from '../system-error-code.js'
import { parseScenario, type CheckedScenario } from './parse-scenario.js'
import { ScenarioError } from './scenario-error.js'

/** The largest scenario file the simulator reads. */
export const MAX_SCENARIO_FILE_BYTES = 32 * 1024 * 1024

/** The part of `node:fs` this module uses, so the core needs no Node types. */
interface FileSystem {
  statSync(path: string): { isFile(): boolean; size: number }
  readFileSync(path: string, encoding: 'utf8'): string
}

function getFileSystem(path: string): FileSystem {
  // process.getBuiltinModule (Node >= 20.16) reaches node:fs without an import,
  // so this module still bundles for the browser, where paths cannot be read.
  const processObject = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  const fs = processObject?.getBuiltinModule?.('node:fs') as FileSystem | undefined
  if (fs === undefined) {
    throw new ScenarioError(path, 'scenario files can be read by path only in Node.js; pass the scenario object itself instead')
  }
  return fs
}

function readScenarioText(path: string): string {
  const fs = getFileSystem(path)
  try {
    const stats = fs.statSync(path)
    if (!stats.isFile()) {
      throw new ScenarioError(path, 'the path is not a file')
    }
    if (stats.size > MAX_SCENARIO_FILE_BYTES) {
      throw new ScenarioError(path, `the file is ${stats.size} bytes; the largest scenario file read is ${MAX_SCENARIO_FILE_BYTES} bytes`)
    }
    return fs.readFileSync(path, 'utf8')
  } catch (error) {
    if (error instanceof ScenarioError) throw error
    const code = systemErrorCode(error)
    const problem =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : `the file cannot be read (${code ?? 'unknown error'})`
    throw new ScenarioError(path, problem)
  }
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position)
  return { line: before.split('\n').length, column: position - before.lastIndexOf('\n') }
}

/**
 * Parses scenario JSON without losing digits: integers beyond 2^53 become
 * bigints, so an int64 id such as 9007199254740993 keeps its value.
 */
export function parseScenarioJson(text: string, source: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  try {
    return parseExactJsonFile(body)
  } catch (error) {
    if (error instanceof RangeError) {
      throw new ScenarioError(source, 'the JSON is nested too deeply to read')
    }
    const message = error instanceof Error ? error.message : String(error)
    let line: number | undefined
    const readable = message.replace(/\(?(?:at )?position (\d+)\)?/, (_, position: string) => {
      const at = lineAndColumn(body, Number(position))
      line = at.line
      return `at line ${at.line}, column ${at.column}`
    })
    throw new ScenarioError(source, `the file is not valid JSON: ${readable}`, undefined, line)
  }
}

/** Reads and checks a scenario file. */
export function loadScenarioFile(path: string): CheckedScenario {
  return readScenarioFile(path).scenario
}

/** Reads and checks a scenario file, keeping its text: what was checked is what a download gives. */
export function readScenarioFile(path: string): { scenario: CheckedScenario; text: string } {
  const text = readScenarioText(path)
  return { scenario: parseScenario(parseScenarioJson(text, path), path), text }
}
