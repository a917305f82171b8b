#!/usr/bin/env node
// The `petstore-sim` command: runs the bundled CLI (dist/cli.cjs) with its V8 code cache.
import { fileURLToPath } from 'node:url'
import { runBundle } from './cli/code-cache.js'

runBundle(fileURLToPath(new URL('./cli.cjs', import.meta.url)))
