/**
 * The reason phrases Node's HTTP server sends with the statuses the simulator
 * answers, so that `sim.fetch` gives the `statusText` a fetch over HTTP gets.
 */
const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

/** The reason phrase of `status`, or "" for one the simulator never answers. */
export function statusText(status: number): string {
  return REASONS[status] ?? ''
}
