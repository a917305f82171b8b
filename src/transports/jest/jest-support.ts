import { readFileSync } from 'node:fs'
import { dirname, sep } from 'node:path'

/** The oldest Jest the preset works with: require(esm) in its module loader, and `exports` in resolution. */
const MIN_JEST_MAJOR = 30

/** What is wrong with the Jest that loads the preset, in one line, or null when nothing is. Pure, so every version can be tested. */
export function jestProblem(jestVersion: string | null): string | null {
  if (jestVersion === null) return null
  const major = Number(jestVersion.split('.')[0])
  if (!Number.isInteger(major) || major >= MIN_JEST_MAJOR) return null
  return `petstore-orders-simulator: the Jest preset needs Jest ${MIN_JEST_MAJOR} or newer, and this is Jest ${jestVersion}. Install it: npm install --save-dev jest@${MIN_JEST_MAJOR}.`
}

/** The version of the jest-config that is reading the preset: the one module of Jest that surely is loaded by now. */
function loadingJestVersion(cache: Readonly<Record<string, unknown>>): string | null {
  const marker = `${sep}jest-config${sep}build${sep}`
  const loaded = Object.keys(cache).find((path) => path.includes(marker))
  if (loaded === undefined) return null
  try {
    const folder = dirname(loaded.slice(0, loaded.indexOf(marker) + marker.length))
    const manifest = JSON.parse(readFileSync(`${folder}${sep}package.json`, 'utf8')) as { version?: unknown }
    return typeof manifest.version === 'string' ? manifest.version : null
  } catch {
    return null
  }
}

/** Throws one line naming what to install when the Jest reading the preset is too old for it. */
export function assertSupportedJest(cache: Readonly<Record<string, unknown>>): void {
  const problem = jestProblem(loadingJestVersion(cache))
  if (problem !== null) throw new Error(problem)
}
