const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0)
}

/**
 * True for an RFC 3339 date-time (the profile of ISO 8601 that OpenAPI's
 * `date-time` format means), with a real calendar date and a time zone.
 */
export function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text)
  if (match === null) {
    return false
  }
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = match.slice(1).map((part) => Number(part ?? 0))
  return (
    month !== undefined &&
    month >= 1 &&
    month <= 12 &&
    day !== undefined &&
    year !== undefined &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour !== undefined &&
    hour <= 23 &&
    minute !== undefined &&
    minute <= 59 &&
    second !== undefined &&
    second <= 60 &&
    (offsetHour ?? 0) <= 23 &&
    (offsetMinute ?? 0) <= 59
  )
}
