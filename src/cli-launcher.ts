#!/usr/bin/env node
// The `petstore-sim` command: runs the bundled CLI (dist/cli.cjs).
import * as nodeModule from 'node:module'

// Node 22.1+ keeps the compiled code on disk from one start to the next; Node 20 has no such cache and compiles as usual.
const { enableCompileCache } = nodeModule as { enableCompileCache?: () => unknown }
enableCompileCache?.()
nodeModule.createRequire(import.meta.url)('./cli.cjs')
