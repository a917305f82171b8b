import { isInteger, isSafeNumber, parse } from 'lossless-json'

const TOKEN_KEY = 'petstore-sim-admin-token'

/** A refused admin call: the Error body's message, to show beside the control that made it. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** JSON with every digit: an int64 beyond 2^53 stays a string of digits, shown as it is. */
export function parseJson(text: string): unknown {
  return parse(text, null, (digits) => (isInteger(digits) && !isSafeNumber(digits) ? digits : Number(digits)))
}

/** The admin API of the page's own origin, for the session picked (none: the default one) and with the token once given. */
export class AdminApi {
  session = ''
  /** Kept for this tab only (sessionStorage), never in the URL. */
  token: string | null = sessionStorage.getItem(TOKEN_KEY)
  onUnauthorized: () => void = () => undefined

  setToken(token: string): void {
    this.token = token
    sessionStorage.setItem(TOKEN_KEY, token)
  }

  headers(): Record<string, string> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' }
    if (this.session !== '') headers['X-Sim-Session'] = this.session
    if (this.token !== null) headers['Authorization'] = `Bearer ${this.token}`
    return headers
  }

  /** One admin call; throws an `AdminError` with the server's message when refused. */
  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const init: RequestInit = { method, headers: this.headers() }
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body)
    const response = await fetch(`/__sim${path}`, init)
    const text = await response.text()
    if (response.status === 401) this.onUnauthorized()
    if (!response.ok) {
      let message = `HTTP ${response.status}`
      try {
        const error = JSON.parse(text) as { message?: unknown }
        if (typeof error.message === 'string') message = error.message
      } catch {
        // Not an Error body: the status says it.
      }
      throw new AdminError(response.status, message)
    }
    return text === '' ? null : parseJson(text)
  }
}
