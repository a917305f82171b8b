// `npm start`: the built CLI, or one line saying how to build it (a fresh clone has no dist/ before `npm ci`).
import { existsSync } from 'node:fs'

const cli = new URL('../dist/cli.mjs', import.meta.url)
if (!existsSync(cli)) {
  console.error('petstore-sim is not built yet: run "npm ci" first (it installs the dependencies and builds dist/), then "npm start".')
  process.exit(1)
}
// In this process, so that a signal sent to npm start still reaches the server.
await import(cli.href)
