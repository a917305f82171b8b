const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0)
}

/** The first and last instants a date-time names in UTC: four-digit years, as `toISOString()` and an HTTP-date write them. */
const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z')
const LATEST = Date.parse('9999-12-31T23:59:59.999Z')

/**
 * True for an RFC 3339 date-time (the profile of ISO 8601 that OpenAPI's
 * `date-time` format means), with a real calendar date and a time zone, that
 * names an instant JavaScript holds within the years 0000 to 9999 in UTC: a
 * leap second (`23:59:60`), which a `Date` cannot hold, or an offset that
 * carries the date past 9999 (`9999-12-31T23:00:00-05:00`) is none, since
 * what the simulator writes of it (`toISOString()`, an HTTP-date) would not
 * read back.
 */
export function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text)
  if (match === null) {
    return false
  }
  const part = (index: number) => Number(match[index] ?? 0)
  const [year, month, day] = [part(1), part(2), part(3)]
  const calendar =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    part(4) <= 23 &&
    part(5) <= 59 &&
    part(6) <= 59 &&
    part(7) <= 23 &&
    part(8) <= 59
  // An offset moves the instant by less than a day: only the first and the last year can leave the range.
  return calendar && ((year > 0 && year < 9999) || isWithinRange(new Date(text)))
}

/** Whether a `Date` is valid and within the years 0000 to 9999 in UTC, so that `toISOString()` gives an RFC 3339 date-time. */
export function isWithinRange(date: Date): boolean {
  const time = date.getTime()
  return time >= EARLIEST && time <= LATEST
}
