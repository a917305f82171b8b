import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { debuglog } from 'node:util'
import { Script } from 'node:vm'

/** `NODE_DEBUG=petstore-sim` prints whether the code cache was used. */
const debug = debuglog('petstore-sim')

/**
 * Where a bundle's V8 code cache for one V8 version lives: next to it, named
 * by that version, since V8 takes a cache only from its own version.
 */
export function codeCacheFile(bundle: string, v8Version: string = process.versions.v8): string {
  return `${bundle}.v8-${v8Version}.cache`
}

/**
 * Compiles a CommonJS bundle written as its module wrapper (a function
 * expression of `exports, require, module, __filename, __dirname`), with its
 * V8 code cache when there is one, and runs it as Node runs a CommonJS
 * module. Node 20 has no compile cache for modules
 * (`module.enableCompileCache` came in Node 22), and compiling the
 * CLI bundle was a large part of its start-up time. The cache is made when
 * the package is built, for the Node that builds it; with another Node (no
 * cache for its V8), other flags or a damaged file, the bundle is compiled
 * from source as usual.
 * @returns the compiled script, for `createCachedData()`.
 */
export function runBundle(bundle: string): Script {
  let cachedData: Buffer | undefined
  try {
    cachedData = readFileSync(codeCacheFile(bundle))
  } catch {
    // No cache: compile from source.
  }
  // The bundle is written as its own module wrapper (scripts/build-cli.mjs): compiled as read, with no copy of its source.
  const script = new Script(readFileSync(bundle, 'utf8'), { filename: bundle, ...(cachedData === undefined ? {} : { cachedData }) })
  debug(
    'V8 code cache %s',
    cachedData === undefined
      ? 'missing: compiled from source'
      : script.cachedDataRejected === true
        ? 'refused: compiled from source'
        : 'used',
  )
  const module = { exports: {} }
  const run = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: object,
    filename: string,
    dirname: string,
  ) => void
  run.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle))
  return script
}
