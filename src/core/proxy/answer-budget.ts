/** The bytes of forwarded answers being read at once, across requests: forward() takes them as they come and gives them back. */
export interface AnswerBudget {
  /** Takes `bytes`; false (nothing taken) when they would pass the total. */
  take(bytes: number): boolean
  give(bytes: number): void
}

/** A budget of `total` bytes, one per proxy setup: every simulator (and server) has its own. */
export function answerBudget(total: number): AnswerBudget {
  let held = 0
  return {
    take(bytes) {
      if (held + bytes > total) return false
      held += bytes
      return true
    },
    give(bytes) {
      held = Math.max(0, held - bytes)
    },
  }
}
