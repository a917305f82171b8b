/** A command line that cannot be run; its message is one line for stderr. */
export class CliUsageError extends Error {
  override name = 'CliUsageError'
}

/** Flag values by name, each falling back to its environment variable. */
export interface FlagReader {
  read(name: string): string | undefined
  readBoolean(name: string): boolean | undefined
  /** Where the value came from, for messages: `--port`, or `PETSTORE_SIM_PORT` when the variable set it. */
  label(name: string): string
}
