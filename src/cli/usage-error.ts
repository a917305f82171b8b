/** A command line that cannot be run; its message is one line for stderr. */
export class CliUsageError extends Error {
  override name = 'CliUsageError'
}
