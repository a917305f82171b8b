import { expect, test } from 'vitest'
import { createSchedule } from './schedule.js'

test('takes what is due, soonest first, ties in the order they were set', () => {
  const schedule = createSchedule()
  schedule.set('3', 300)
  schedule.set('1', 100)
  schedule.set('2', 300)
  schedule.set('4', 50)
  expect(schedule.soonest()).toBe(50)
  expect(schedule.takeDue(300)).toEqual(['4', '1', '3', '2'])
  expect(schedule.soonest()).toBeUndefined()
})

test('one transition per order: setting again moves it, deleting drops it', () => {
  const schedule = createSchedule()
  schedule.set('1', 100)
  schedule.set('2', 200)
  schedule.set('1', 300)
  schedule.delete('2')
  expect(schedule.entries().map(({ id, due }) => [id, due])).toEqual([['1', 300]])
  expect(schedule.takeDue(299)).toEqual([])
  schedule.clear()
  expect(schedule.entries()).toEqual([])
})
