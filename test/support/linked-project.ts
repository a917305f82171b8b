import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ROOT } from './cli-process.js'

/** Where a dependency of this repository is installed, found as Node finds it (the msw 3 matrix runs from an overlay folder). */
export const packageDir = (name: string): string => dirname(createRequire(import.meta.url).resolve(`${name}/package.json`))

/** What a consumer project installs beside the package, linked from this repository: msw, and what README's Jest examples name. */
const LINKED = ['msw', '@jest/globals', '@swc/jest', '@swc/core']

/**
 * A folder set up like a project that installed the package (linked to this
 * repository, as `npm link` would) beside msw and the Jest tools, holding
 * `files`; a package of `type`, with `manifest` merged into its package.json.
 */
export function linkedProject(
  folder: string,
  type: 'commonjs' | 'module',
  files: Readonly<Record<string, string>> = {},
  manifest: Readonly<Record<string, unknown>> = {},
): string {
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(join(folder, 'node_modules/@jest'), { recursive: true })
  mkdirSync(join(folder, 'node_modules/@swc'), { recursive: true })
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type, ...manifest }))
  symlinkSync(ROOT, join(folder, 'node_modules/petstore-orders-simulator'))
  for (const name of LINKED) symlinkSync(packageDir(name), join(folder, 'node_modules', name))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text)
  return folder
}
