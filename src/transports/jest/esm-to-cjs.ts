import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SyncTransformer, TransformedSource, TransformOptions } from '@jest/transform'
import type * as Esbuild from 'esbuild'

/** Whether Node would load `file` as an ES module: `.mjs`, or `.js` under a package.json that says `"type": "module"`. */
function createFormatReader(): (file: string) => 'esm' | 'cjs' {
  // One lookup per folder: a test run loads hundreds of files from the same few packages.
  const typeOfFolder = new Map<string, 'module' | 'commonjs'>()
  function packageType(folder: string): 'module' | 'commonjs' {
    const known = typeOfFolder.get(folder)
    if (known !== undefined) return known
    let type: 'module' | 'commonjs'
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { type?: unknown }
      type = manifest.type === 'module' ? 'module' : 'commonjs'
    } catch {
      const parent = dirname(folder)
      type = parent === folder ? 'commonjs' : packageType(parent)
    }
    typeOfFolder.set(folder, type)
    return type
  }
  return (file) => {
    if (file.endsWith('.mjs')) return 'esm'
    if (file.endsWith('.cjs')) return 'cjs'
    return packageType(dirname(file)) === 'module' ? 'esm' : 'cjs'
  }
}

// What import.meta becomes in CommonJS: the file's own URL and paths, as Node gives them to an ES module.
const IMPORT_META_URL = '__petstoreSimImportMetaUrl'
const BANNER = `var ${IMPORT_META_URL} = require("node:url").pathToFileURL(__filename).href;`

/**
 * esbuild, an optional peer: only Jest's default mode needs it, so consumers
 * who never run Jest do not install its 11 MB. Missing, one line says what to do.
 */
function loadEsbuild(): typeof Esbuild {
  try {
    return createRequire(import.meta.url)('esbuild') as typeof Esbuild
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'MODULE_NOT_FOUND') throw error
    throw new Error(
      "petstore-orders-simulator's Jest preset needs esbuild to load ES modules in Jest's default mode: npm install --save-dev esbuild",
    )
  }
}

/** Turns one ES module into CommonJS for Jest's default mode, which cannot load ES modules. */
function toCommonJs(esbuild: typeof Esbuild, source: string, file: string): TransformedSource {
  try {
    const { code, map } = esbuild.transformSync(source, {
      format: 'cjs',
      platform: 'node',
      target: 'esnext',
      loader: 'js',
      sourcefile: file,
      sourcemap: 'external',
      banner: BANNER,
      // Jest's CommonJS mode gives a module no way to import(): load it with require() instead.
      supported: { 'dynamic-import': false },
      // import.meta.require: Jest's own require, with which this package loads msw on first use (require-msw.ts).
      define: {
        'import.meta.url': IMPORT_META_URL,
        'import.meta.filename': '__filename',
        'import.meta.dirname': '__dirname',
        'import.meta.require': 'require',
      },
      logLevel: 'silent',
    })
    return { code, map }
  } catch (error) {
    const reason = (error as { errors?: { text: string }[] }).errors?.[0]?.text ?? String(error)
    throw new Error(
      `petstore-orders-simulator's Jest preset cannot turn ${file} into CommonJS for Jest (${reason}). ` +
        'Run Jest in its ES module mode instead: NODE_OPTIONS=--experimental-vm-modules npx jest.',
    )
  }
}

/**
 * The Jest transformer of the preset. In Jest's default (CommonJS) mode it
 * turns ES modules (this package's, msw's and their dependencies') into
 * CommonJS with esbuild; everything else, and everything in Jest's ES module
 * mode, passes through untouched.
 */
function createTransformer(): SyncTransformer {
  const formatOf = createFormatReader()
  // Loaded with the first file to convert: Jest's ES module mode converts none.
  let esbuild: typeof Esbuild | undefined
  const loaded = () => (esbuild ??= loadEsbuild())
  const converts = (file: string, options: TransformOptions) => !options.supportsStaticESM && formatOf(file) === 'esm'
  // Jest keys its cache by this alone: a new version of this transformer must not reuse the old one's output.
  const self = createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex')
  return {
    canInstrument: false,
    getCacheKey(source, file, options) {
      return createHash('sha256')
        .update(`${self}\0${converts(file, options) ? loaded().version : ''}\0${file}\0${options.configString}\0`)
        .update(source)
        .digest('hex')
    },
    process(source, file, options) {
      return converts(file, options) ? toCommonJs(loaded(), source, file) : { code: source }
    },
  }
}

// Jest loads a transformer with require() (or import()) and reads its default export.
export default { createTransformer }
