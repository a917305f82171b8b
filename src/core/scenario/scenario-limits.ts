// Limits of a scenario that code outside the schema needs too; small, so a page that never parses a
// scenario file does not load the schema for them.

/** What a scenario's name may be: also a file name in the scenarios folder, and safe in a path. */
export const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/
/** The most orders one scenario may hold, explicit and generated together. */
export const MAX_ORDERS = 100_000
