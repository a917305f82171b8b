/**
 * The `code` values of every Error body the simulator sends. The
 * specification leaves the allowed values unshown; these are the simulator's
 * stable, snake_case choice.
 */
export const ErrorCode = {
  /** 401: the bearer key is missing, malformed or not accepted. */
  Unauthorized: 'unauthorized',
  /** 400: the path id of a cancel is not a decimal int64. */
  InvalidOrderId: 'invalid_order_id',
  /** 404: no order has the given id. */
  OrderNotFound: 'order_not_found',
  /** 409: the order has already shipped. */
  OrderAlreadyShipped: 'order_already_shipped',
  /** 409: the order is in another state that is not pending (already cancelled). */
  OrderNotPending: 'order_not_pending',
  /** 409: an order added through the admin API or `addOrder` has an id that another order holds. */
  OrderExists: 'order_exists',
  /** 409: a state already holds the most orders it may (100,000); remove some first. */
  TooManyOrders: 'too_many_orders',
  /** 404: the scenario declares no pet with the given id. */
  PetNotFound: 'pet_not_found',
  /** 404: no operation lives at this path. */
  NotFound: 'not_found',
  /** 405: the path exists but not with this method. */
  MethodNotAllowed: 'method_not_allowed',
  /** 400: a request body (to the admin API) is not what it expects. */
  InvalidRequest: 'invalid_request',
  /** 400: the admin API was asked for a scenario it does not have. */
  UnknownScenario: 'unknown_scenario',
  /** 409: a reset to the scenario file the server started with, which no longer loads (edited since). */
  ScenarioFileInvalid: 'scenario_file_invalid',
  /** 409: a save names a scenario the folder (or the built-in set) already has, without `overwrite`. */
  ScenarioExists: 'scenario_exists',
  /** 409: a save with no scenarios folder, or one that is read-only, gone, full or not writable. */
  ScenariosDirUnavailable: 'scenarios_dir_unavailable',
  /** 409: the state to save is larger than a scenario file of the folder may be (4 MiB). */
  ScenarioTooLarge: 'scenario_too_large',
  /** 413: the request body is larger than the server accepts. */
  PayloadTooLarge: 'payload_too_large',
  /** 431: the request's header section is larger than the server reads (64 KiB). */
  HeadersTooLarge: 'headers_too_large',
  /** 429: the key spent its rate-limit budget (only with a rate limit set). */
  RateLimited: 'rate_limited',
  /** 502: an injected fault. */
  BadGateway: 'bad_gateway',
  /** 503: an injected fault; carries Retry-After. */
  ServiceUnavailable: 'service_unavailable',
  /** 504: an injected fault. */
  GatewayTimeout: 'gateway_timeout',
  /** 403: the Host header names a host the server does not answer for (DNS rebinding). */
  ForbiddenHost: 'forbidden_host',
  /** 403: an admin call from a web page of another origin. */
  ForbiddenOrigin: 'forbidden_origin',
  /** 408: the request's headers (15 s) or the whole request (45 s) did not arrive in time. */
  RequestTimeout: 'request_timeout',
  /** 417: an Expect header the server cannot meet. */
  ExpectationFailed: 'expectation_failed',
  /** 503: a new session (X-Sim-Session) would pass the sessions' bound in number or in bytes; carries Retry-After. */
  TooManySessions: 'too_many_sessions',
  /** 504: a request forwarded to the proxy target got no whole answer within the proxy timeout (default 10 s). */
  ProxyTimeout: 'proxy_timeout',
  /** 502: the proxy target could not be reached (connection refused, no such host, TLS) or closed the connection without an answer. */
  ProxyUnreachable: 'proxy_unreachable',
  /** 502: the proxy target's answer body passed 32 MiB; it was cut off there. */
  ProxyAnswerTooLarge: 'proxy_answer_too_large',
  /** 502: the proxy target's answer could not be passed on: a header name or value HTTP does not allow, more headers than are read, or broken framing. */
  ProxyBadAnswer: 'proxy_bad_answer',
  /** 400: a path under the API base whose decoded form could differ from what a server behind it reads (`%2f`, `%2e`, `;`, `//`, a backslash, a control character). */
  InvalidPath: 'invalid_path',
  /** 500: the simulator failed unexpectedly. */
  InternalError: 'internal_error',
} as const

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]
