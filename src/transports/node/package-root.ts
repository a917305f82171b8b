import { readFileSync } from 'node:fs'

const PACKAGE_NAME = 'petstore-orders-simulator'

/**
 * The folder that holds this package's package.json, found by walking up
 * from this file: it runs both as src/*.ts (tests) and as dist/src/*.js.
 */
export function packageRoot(): URL {
  // Three levels up from src/transports/node/, four from dist/src/transports/node/ (one from the bundled CLI in dist/).
  for (const relative of ['../', '../../', '../../../', '../../../../']) {
    const folder = new URL(relative, import.meta.url)
    try {
      const manifest = JSON.parse(readFileSync(new URL('package.json', folder), 'utf8')) as { name?: string }
      if (manifest.name === PACKAGE_NAME) return folder
    } catch {
      // No package.json here: look one level up.
    }
  }
  throw new Error(`Failed to find the ${PACKAGE_NAME} package folder above ${import.meta.url}.`)
}

/** A file of this package, as text, by its path from the package's folder. */
export function packageFile(file: string): string {
  return readFileSync(new URL(file, packageRoot()), 'utf8')
}

/** The version in this package's package.json. */
export function packageVersion(): string {
  return (JSON.parse(packageFile('package.json')) as { version: string }).version
}
