import type { Int64Key } from '../int64.js'

interface Entry {
  id: Int64Key
  due: number
  /** Ties of `due` come out in the order they went in. */
  seq: number
}

const before = (a: Entry, b: Entry) => a.due < b.due || (a.due === b.due && a.seq < b.seq)

/** Transitions by the time they fall due: at most one per order, soonest first. */
export function createSchedule() {
  let queue: Entry[] = []
  const byId = new Map<Int64Key, Entry>()
  let seq = 0

  function remove(id: Int64Key): void {
    const entry = byId.get(id)
    if (entry === undefined) return
    byId.delete(id)
    queue.splice(queue.indexOf(entry), 1)
  }

  return {
    /** Puts the order's transition at `due`, replacing the one it had. */
    set(id: Int64Key, due: number): void {
      remove(id)
      const entry = { id, due, seq: seq++ }
      byId.set(id, entry)
      // Binary search: a load schedules in list order, so most inserts land at the end.
      let low = 0
      let high = queue.length
      while (low < high) {
        const middle = (low + high) >>> 1
        if (before(queue[middle] as Entry, entry)) low = middle + 1
        else high = middle
      }
      queue.splice(low, 0, entry)
    },
    delete: remove,
    /** Takes out every transition due at `time` or before, soonest first. */
    takeDue(time: number): Int64Key[] {
      let count = 0
      while (count < queue.length && (queue[count] as Entry).due <= time) count++
      const due = queue.splice(0, count)
      for (const entry of due) byId.delete(entry.id)
      return due.map((entry) => entry.id)
    },
    /** When the soonest falls due, or undefined when none is left. */
    soonest: () => queue[0]?.due,
    /** When the order's transition was set, counted from the last `clear` (undefined: none is set), to compare with `sequence()`. */
    seqOf: (id: Int64Key): number | undefined => byId.get(id)?.seq,
    /** The count the next `set` takes: every transition set before now has a smaller one. */
    sequence: (): number => seq,
    entries: (): readonly { id: Int64Key; due: number }[] => queue,
    clear() {
      queue = []
      byId.clear()
      seq = 0
    },
  }
}
