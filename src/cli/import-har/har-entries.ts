import { isPlainObject } from '../../core/scenario/plain-object.js'

// The HAR's entries as import-har reads them: the JSON's `log.entries`, and of each entry under the
// base what a route or the orders take, its request's header values left unread.

/** A HAR that cannot be imported; its message is one line (exit 2). */
export class HarImportError extends Error {
  override name = 'HarImportError'
}

/** Throws the one-line `HarImportError`. */
export function failHar(message: string): never {
  throw new HarImportError(message)
}
export interface HarEntry {
  index: number
  method: string
  /** The path under the base, "/" for the base itself. */
  path: string
  /** The URL's query as it reads, without "?": "" for none. */
  query: string
  status: number
  headers: [string, string][]
  /** The answer's bytes, base64 decoded, or undefined when the HAR holds none. */
  body: Uint8Array | undefined
  contentType: string | undefined
  /** A CORS preflight the browser sent on its own: the simulator answers those itself. */
  preflight: boolean
}

export function field(record: unknown, name: string): unknown {
  return isPlainObject(record) ? record[name] : undefined
}

/** Each `[name, value]` of a HAR list of `{ name, value }` records (headers, cookies, query, form params). */
export function pairsOf(list: unknown): [string, string][] {
  return (Array.isArray(list) ? list : []).flatMap((header): [string, string][] => {
    const name = field(header, 'name')
    const value = field(header, 'value')
    return typeof name === 'string' && typeof value === 'string' ? [[name, value]] : []
  })
}

/** The response bytes of an entry, base64 `content.encoding` decoded. */
function contentBytes(content: unknown, where: string): Uint8Array | undefined {
  const text = field(content, 'text')
  if (typeof text !== 'string' || text === '') return undefined
  if (field(content, 'encoding') !== 'base64') return new TextEncoder().encode(text)
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(text)) failHar(`${where}: content.text is not base64, though content.encoding says so.`)
  return new Uint8Array(Buffer.from(text, 'base64'))
}

/** The entries under the base, read from the HAR's `log.entries`, and how many others it holds (the page, its scripts...). */
export function entriesUnder(list: readonly unknown[], base: string): { entries: HarEntry[]; outside: number } {
  const entries: HarEntry[] = []
  let outside = 0
  for (const [index, entry] of list.entries()) {
    const request = field(entry, 'request')
    const response = field(entry, 'response')
    const method = field(request, 'method')
    const url = field(request, 'url')
    const status = field(response, 'status')
    if (typeof method !== 'string' || typeof url !== 'string' || typeof status !== 'number')
      failHar(`The file is not a HAR: entry ${index} has no request.method, request.url and response.status.`)
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return failHar(`The file is not a HAR: entry ${index} has request.url ${JSON.stringify(url.slice(0, 80))}, which is no absolute URL.`)
    }
    const { pathname } = parsed
    if (pathname !== base && !pathname.startsWith(`${base}/`)) {
      outside++
      continue
    }
    const headers = pairsOf(field(response, 'headers'))
    const content = field(response, 'content')
    const where = `entry ${index} (${method.toUpperCase()} ${pathname})`
    const mimeType = field(content, 'mimeType')
    const contentType =
      headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? (typeof mimeType === 'string' ? mimeType : undefined)
    // Only the names of the request's headers are read, never their values.
    const preflight =
      method.toUpperCase() === 'OPTIONS' &&
      pairsOf(field(request, 'headers')).some(([name]) => name.toLowerCase() === 'access-control-request-method')
    const path = pathname.slice(base.length) || '/'
    const query = parsed.search.slice(1)
    entries.push({
      index,
      method: method.toUpperCase(),
      path,
      query,
      status,
      headers,
      body: contentBytes(content, where),
      contentType,
      preflight,
    })
  }
  return { entries, outside }
}

/** The HAR's entries, or a one-line error when the text is not a HAR. */
export function harEntries(harText: string): unknown[] {
  let har: unknown
  try {
    har = JSON.parse(harText.charCodeAt(0) === 0xfeff ? harText.slice(1) : harText)
  } catch (error) {
    failHar(`The file is not a HAR: it is not JSON (${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`)
  }
  const list = field(field(har, 'log'), 'entries')
  if (!Array.isArray(list)) failHar('The file is not a HAR: it has no log.entries list.')
  return list
}
