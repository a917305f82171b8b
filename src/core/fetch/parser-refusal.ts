import { ApiError, invalidRequest } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'

/** The largest header section the standalone server reads; a 16 KB key still gets its 401. */
export const MAX_HEADER_BYTES = 64 * 1024

/** The methods Node's HTTP parser reads (`http.METHODS`); it refuses any other before the server sees it. */
const PARSED_METHODS = new Set(
  'ACL BIND CHECKOUT CONNECT COPY DELETE GET HEAD LINK LOCK M-SEARCH MERGE MKACTIVITY MKCALENDAR MKCOL MOVE NOTIFY OPTIONS PATCH POST PROPFIND PROPPATCH PURGE PUT QUERY REBIND REPORT SEARCH SOURCE SUBSCRIBE TRACE UNBIND UNLINK UNLOCK UNSUBSCRIBE'.split(
    ' ',
  ),
)

/** The 400 of a request Node's parser cannot read, as the standalone server answers it. */
export function notValidHttp(): ApiError {
  return invalidRequest('The request is not valid HTTP.')
}

/** The 431 of a header section over `MAX_HEADER_BYTES`. */
export function headersTooLarge(): ApiError {
  return new ApiError(431, ErrorCode.HeadersTooLarge, `The request headers are larger than ${MAX_HEADER_BYTES} bytes.`)
}

/**
 * What the standalone server's HTTP parser would refuse of this request
 * before any rule runs, so that `sim.fetch` answers bad input as a fetch
 * over HTTP gets it: a method it does not know (Fetch sends `patch` as
 * written, and the parser knows only `PATCH`), or headers past its limit.
 */
export function parserRefusal(method: string, target: string, headers: Headers): ApiError | null {
  if (!PARSED_METHODS.has(method)) return notValidHttp()
  // The request line and each header line as sent; the few headers a fetch adds itself are left out.
  let size = method.length + target.length + 12
  for (const [name, value] of headers) size += name.length + value.length + 4
  return size > MAX_HEADER_BYTES ? headersTooLarge() : null
}
