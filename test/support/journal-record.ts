import type { JournalRecord } from '../../src/core/state/journal.js'

/** One answered request as the dispatcher records it: what coverage unit tests count. */
export const journalRecord = (fields: Partial<JournalRecord> & Pick<JournalRecord, 'operation' | 'status'>): JournalRecord => ({
  time: 0,
  method: 'GET',
  path: '/store/orders',
  duration: 1,
  orderId: null,
  answeredBy: 'operation',
  body: 'some',
  code: null,
  ...fields,
})
