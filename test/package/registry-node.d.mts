/** The repository's root folder. */
export const ROOT: string
/** Runs a command with inherited output; throws when it fails. */
export function run(command: string, args: string[], options?: import('node:child_process').SpawnSyncOptions): void
/** The bin folder of Node `version` from the registry, installed once into .matrix/node-<version>/. */
export function nodeBin(version: string): string
/** An environment whose `node` (and so `npm` and `npx`) is Node `version`; the machine's when null. */
export function envWithNode(version: string | null, extraPath?: string[]): NodeJS.ProcessEnv
