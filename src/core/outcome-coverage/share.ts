/**
 * "9 of 12 (75%)": the share of outcomes exercised, to one decimal where it is not whole, rounded down
 * (never more than was met), as the CLI and the panel both say it.
 */
export function exercisedShare({ exercised, total }: { exercised: number; total: number }): string {
  const percent = total === 0 ? 100 : Math.floor((exercised / total) * 1000) / 10
  return `${exercised} of ${total} (${percent}%)`
}
