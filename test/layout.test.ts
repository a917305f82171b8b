import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src')

/** Every source module (tests and the demo page aside) and what it imports, static, dynamic and type-only alike. */
function modules(): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const entry of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts') || entry.endsWith('.test.ts') || entry.startsWith('demo') || entry.startsWith('panel')) continue
    const text = readFileSync(join(SRC, entry), 'utf8')
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] as string)
    found.set(
      entry,
      specifiers.map((specifier) =>
        specifier.startsWith('.') ? relative(SRC, resolve(SRC, dirname(entry), specifier)).replace(/\.js$/, '.ts') : specifier,
      ),
    )
  }
  return found
}

/** The layer of a module, lowest first: each may import only from layers at or below its own. */
function layer(path: string): number {
  if (path.startsWith('core/') || path.startsWith('contract/')) return 0
  // What only Node.js has (core/platform.ts): on the core, beneath every transport that runs in Node.
  if (path.startsWith('platform/')) return 0.5
  if (/^transports\/(msw|node|playwright|jest|storybook|mcp)\//.test(path)) return 1
  if (path.startsWith('transports/express/')) return 2
  if (path.startsWith('transports/standalone/')) return 3
  return 4
}

test('the core imports no msw, express or node: module, and nothing above it', () => {
  for (const [path, imports] of modules()) {
    if (layer(path) !== 0) continue
    for (const specifier of imports) {
      expect(specifier, `${path} imports ${specifier}`).not.toMatch(/^(msw|express|node:)/)
      if (specifier.endsWith('.ts')) expect(layer(specifier), `${path} imports ${specifier}`).toBe(0)
    }
  }
})

test('imports point down: entry points, then the standalone server, express, then msw, node, playwright and jest, then the core', () => {
  for (const [path, imports] of modules()) {
    for (const specifier of imports.filter((name) => name.endsWith('.ts'))) {
      expect(layer(specifier), `${path} imports ${specifier}`).toBeLessThanOrEqual(layer(path))
      // Side by side, msw, node and playwright know nothing of each other.
      if (layer(path) === 1 && layer(specifier) === 1)
        expect(specifier.split('/')[1], `${path} imports ${specifier}`).toBe(path.split('/')[1])
    }
    if (/^transports\/(node|playwright|jest|storybook)\//.test(path))
      expect(
        imports.filter((name) => /^(msw|express)/.test(name)),
        path,
      ).toEqual([])
  }
})

test('no module imports itself back through others', () => {
  const graph = modules()
  const cycles: string[] = []
  const done = new Set<string>()
  const visit = (path: string, trail: string[]) => {
    if (trail.includes(path)) {
      cycles.push([...trail.slice(trail.indexOf(path)), path].join(' -> '))
      return
    }
    if (done.has(path)) return
    for (const next of graph.get(path) ?? []) if (graph.has(next)) visit(next, [...trail, path])
    done.add(path)
  }
  for (const path of graph.keys()) visit(path, [])
  expect(cycles).toEqual([])
})
