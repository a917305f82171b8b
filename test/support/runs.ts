/**
 * How many runs a property-based or model suite makes: its full count in `npm test`, and a few in
 * `npm run test:quick`, the daily loop, which vitest.quick.config.ts marks with VITEST_QUICK=1.
 * FC_SEED replays either (the seed draws the same first runs).
 */
export function runs(full: number, quick: number): number {
  return process.env['VITEST_QUICK'] === '1' ? quick : full
}
