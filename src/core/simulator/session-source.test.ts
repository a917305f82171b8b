// The session a request names (issue 58, item 1): X-Sim-Session, else the W3C Baggage `sim-session` member,
// read as OpenTelemetry's extractor reads baggage (its bounds, the last member wins, values percent-decoded).
import { afterEach, expect, test, vi } from 'vitest'
import { ValidationError } from '../validation-error.js'
import {
  BAGGAGE_KEY,
  baggageSessionId,
  fromBaggage,
  MAX_BAGGAGE_CHARS,
  MAX_BAGGAGE_MEMBER,
  MAX_BAGGAGE_MEMBERS,
  sessionNamedBy,
} from './session-source.js'

/** A request with these headers (a name in any case), as SimRequest.header reads them. */
const requestWith = (headers: Record<string, string>) => ({
  header: (name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1] ?? null,
})

afterEach(() => vi.restoreAllMocks())

test.each([
  ['plain', 'sim-session=s1', 's1'],
  ['among members with properties and OWS', 'a=1;p, sim-session = s1 ;q=2;r, b=2', 's1'],
  ['OWS of tabs and spaces', 'a=1,\t sim-session\t=\t s1\t ;q', 's1'],
  ['percent-encoded as OpenTelemetry sends it', 'sim-session=run%3A7', 'run:7'],
  ['two baggage headers joined with ", "', 'a=1;p=2, b=3, sim-session=joined', 'joined'],
  ['a repeated member: the last wins, as in OpenTelemetry', 'sim-session=first, a=1, sim-session=last', 'last'],
  ['a value holding "=": split at the first only', 'sim-session=a=b', 'a=b'],
  ['malformed neighbours do not hide it', ',,;, =x, junk, "q", =, k=v;;;, sim-session=s2, \u0000\u007f', 's2'],
  ['empty (present, and refused later)', 'a=1, sim-session=, b=2', ''],
  ['an empty value before properties', 'sim-session= ;p=1', ''],
  ['a bad escape kept as sent (refused later)', 'sim-session=%ZZ', '%ZZ'],
  ['a space inside kept (refused later)', 'sim-session=a b', 'a b'],
  ['an encoded control character decoded (refused later)', 'sim-session=a%0Ab', 'a\nb'],
])('%s', (_, header, id) => {
  expect(baggageSessionId(header)).toBe(id)
})

test.each([
  ['a longer key', 'xsim-session=1'],
  ['the key as a value', 'foo=sim-session'],
  ['the key as a property', 'a=1;sim-session=2'],
  ['another case (keys are case-sensitive)', 'Sim-Session=1'],
  ['no "="', 'sim-session'],
  ['no "=" but a property', 'sim-session;p=1'],
  ['the key inside a longer one', 'sim-sessions=1, my-sim-session=2'],
])('not named: %s', (_, header) => {
  expect(baggageSessionId(header)).toBeNull()
})

test('X-Sim-Session wins over baggage; an empty one is none, and baggage names the session then', () => {
  expect(sessionNamedBy(requestWith({ 'X-Sim-Session': 'h1', baggage: 'sim-session=b1' }))).toEqual({ id: 'h1', from: 'X-Sim-Session' })
  expect(sessionNamedBy(requestWith({ 'X-Sim-Session': '', baggage: 'sim-session=b1' }))).toEqual({ id: 'b1', from: 'baggage' })
  expect(sessionNamedBy(requestWith({ baggage: 'sim-session=b1' }))).toEqual({ id: 'b1', from: 'baggage' })
  expect(sessionNamedBy(requestWith({ baggage: 'a=1' }))).toBeNull()
  expect(sessionNamedBy(requestWith({}))).toBeNull()
})

test('X-Sim-Session sent: the baggage header is not even read', () => {
  const read: string[] = []
  const request = {
    header: (name: string) => {
      read.push(name)
      return name === 'X-Sim-Session' ? 'h1' : 'sim-session=b1'
    },
  }
  expect(sessionNamedBy(request)?.from).toBe('X-Sim-Session')
  expect(read).toEqual(['X-Sim-Session'])
})

test('no baggage header, or one without sim-session, is not parsed: the hot path reads a header and nothing more', () => {
  const indexOf = vi.spyOn(String.prototype, 'indexOf')
  const slice = vi.spyOn(String.prototype, 'slice')
  const charCodeAt = vi.spyOn(String.prototype, 'charCodeAt')
  const plain = requestWith({ Authorization: 'Bearer k' })
  const other = requestWith({ baggage: `a=1;p=2, b=${'x'.repeat(5000)}, userId=alice, ${','.repeat(10_000)}` })
  for (let request = 0; request < 100; request++) {
    sessionNamedBy(plain)
    sessionNamedBy(other)
  }
  const parsed = indexOf.mock.calls.length + slice.mock.calls.length + charCodeAt.mock.calls.length
  sessionNamedBy(requestWith({ baggage: 'a=1, sim-session=s1' }))
  const named = indexOf.mock.calls.length
  vi.restoreAllMocks()
  expect(parsed).toBe(0)
  // The spies see parsing: a header with the key is parsed.
  expect(named).toBeGreaterThan(0)
})

test(`bounds: ${MAX_BAGGAGE_MEMBERS} members read, a member over ${MAX_BAGGAGE_MEMBER} characters skipped, none past ${MAX_BAGGAGE_CHARS}`, () => {
  const filler = (count: number) => Array.from({ length: count }, (_, index) => `k${index}=v`).join(',')
  expect(baggageSessionId(`${filler(MAX_BAGGAGE_MEMBERS - 1)},${BAGGAGE_KEY}=last-read`)).toBe('last-read')
  expect(baggageSessionId(`${filler(MAX_BAGGAGE_MEMBERS)},${BAGGAGE_KEY}=one-too-many`)).toBeNull()
  // Empty members count: 10,000 commas end the reading, quickly.
  expect(baggageSessionId(`${','.repeat(10_000)}${BAGGAGE_KEY}=s1`)).toBeNull()

  const long = `${BAGGAGE_KEY}=s1;p=${'x'.repeat(MAX_BAGGAGE_MEMBER)}`
  expect(baggageSessionId(long)).toBeNull()
  // A long member is skipped, not the end of reading: the one after it counts; and an earlier one stands.
  expect(baggageSessionId(`${long}, ${BAGGAGE_KEY}=after`)).toBe('after')
  expect(baggageSessionId(`${BAGGAGE_KEY}=before, ${long}`)).toBe('before')

  const pad = (chars: number) => `pad=${'y'.repeat(chars - 5)},`
  // Within the 8192 characters (each pad member under the member bound): read.
  const within = `${pad(4000)}${pad(4000)}${BAGGAGE_KEY}=s1`
  expect(within.length).toBeLessThanOrEqual(MAX_BAGGAGE_CHARS)
  expect(baggageSessionId(within)).toBe('s1')
  // A member ending past them is not read, nor any after it.
  const past = `${pad(4000)}${pad(4000)}${pad(190)}${BAGGAGE_KEY}=s1`
  expect(past.length).toBeGreaterThan(MAX_BAGGAGE_CHARS)
  expect(baggageSessionId(past)).toBeNull()
  expect(baggageSessionId(`${BAGGAGE_KEY}=early, ${pad(4000)}${pad(4000)}${pad(190)}${BAGGAGE_KEY}=late`)).toBe('early')
})

test('hostile headers are read quickly and never throw: 1 MiB of members, one huge member, control characters', () => {
  const huge = [
    `${'a=b,'.repeat(262_144)}sim-session=s1`,
    `sim-session=${'x'.repeat(1 << 20)}`,
    `a=${'\u0000;='.repeat(1 << 18)}, sim-session=s1`,
    `${'sim-session'.repeat(100_000)}`,
    `${';'.repeat(1 << 20)}sim-session=s1`,
  ]
  const started = performance.now()
  for (const header of huge) expect(() => baggageSessionId(header)).not.toThrow()
  expect(performance.now() - started).toBeLessThan(500)
  expect(baggageSessionId(huge[0] as string)).toBeNull()
  expect(baggageSessionId(huge[1] as string)).toBeNull()
})

test('a session error of a baggage-named session names the member and shows the id quoted, and only it', () => {
  const bad = fromBaggage(new ValidationError('X-Sim-Session', 'Invalid session id "a b": …'), 'a b')
  expect(bad.field).toBe('baggage')
  expect(bad.message).toBe(
    'Invalid session id "a b" in the baggage header\'s sim-session member: use 1 to 128 letters, digits and . _ : - characters.',
  )
  expect(fromBaggage(new ValidationError('X-Sim-Session', 'x'), 'a\u0000"\n').message).toContain('"a\\u0000\\"\\n"')
  const off = fromBaggage(new ValidationError('X-Sim-Session', 'Sessions are turned off (sessions.max is 0).'), 's1')
  expect(off.message).toBe(`Sessions are turned off (sessions.max is 0). The baggage header's sim-session member named session "s1".`)
})
