// The admin document around its operations and schemas: what it is, who may call it, and the answers and headers many calls share.

export const ADMIN_DOCUMENT_HEAD = {
  openapi: '3.1.0',
  info: {
    title: 'Petstore Orders Simulator admin API',
    version: '1.0.0',
    summary: "The simulator's own API under /__sim: scenarios, state, orders, clock, request journal, misbehaviour and sessions.",
    description:
      "The admin API of the Petstore Orders Simulator's standalone server (docs/server.md). It is not part of the simulated service: see openapi.json for that. Paths carry their /__sim prefix, so that GET /__sim (the JSON list of endpoints) and GET /__sim/ (the QA panel) stay apart. Every call acts on the session named by X-Sim-Session, or the default state without one. JSON in and out; int64 ids beyond 2^53 are written as exact JSON integers. Every error is the Error body { code, message, status } with Content-Type application/json. Answers that no operation below describes: an unknown admin path gives 404 not_found (components/responses/NotFound); a known path with another method gives 405 method_not_allowed with an Allow header naming the documented methods (components/responses/MethodNotAllowed); HEAD is answered like GET without a body; OPTIONS is a CORS preflight answered 204 before any admin route. With the admin API turned off (--no-admin), every /__sim path answers 404 not_found.",
  },
  servers: [
    {
      url: '/',
      description:
        "The simulator's standalone server (npm start, petstore-sim, startSimulatorServer, createSimulatorApp). The paths carry the /__sim prefix.",
    },
  ],
  security: [{}, { adminToken: [] }],
  tags: [
    { name: 'discovery', description: 'What the admin API offers.' },
    { name: 'health', description: 'What probes and load balancers call: no token, any Host, also with the admin API off.' },
    { name: 'panel', description: 'The QA panel and the demo page: HTML and static files for a browser.' },
    { name: 'state', description: 'Scenarios, reset and the state served now.' },
    { name: 'orders', description: "Orders read and edited directly, bypassing the API's rules." },
    { name: 'clock', description: 'The simulated clock that drives the order lifecycle.' },
    { name: 'journal', description: 'The requests the simulated API answered.' },
    { name: 'controls', description: 'Misbehaviour on purpose: faults, latency, rate limit.' },
    { name: 'sessions', description: 'Separate states per X-Sim-Session.' },
    { name: 'pact', description: "Pact contracts from the requests a consumer suite sent, and the state changes of Pact's verifier." },
  ],
}

export const ADMIN_COMPONENTS = {
  securitySchemes: {
    adminToken: {
      type: 'http',
      scheme: 'bearer',
      description:
        "The admin token the server was started with (--admin-token, PETSTORE_SIM_ADMIN_TOKEN, adminToken). A server without one needs none. The order API's keys do not open the admin API, nor the token the order API.",
    },
  },
  parameters: {
    SimSession: {
      name: 'X-Sim-Session',
      in: 'header',
      required: false,
      description:
        "Acts on this session, made on first use from the simulator's current scenario. Without it, the call acts on the default state.",
      schema: { $ref: '#/components/schemas/SessionId' },
    },
    OrderId: {
      name: 'orderId',
      in: 'path',
      required: true,
      description: "The order's id. One that is not a decimal int64 is a 400 invalid_order_id.",
      schema: { type: 'integer', format: 'int64' },
    },
    StaticFile: { name: 'file', in: 'path', required: true, description: "The file's name.", schema: { type: 'string' } },
  },
  headers: {
    ContentDisposition: {
      description: 'The file name to save it under: attachment; filename="<name>.json".',
      required: true,
      schema: { type: 'string', pattern: '^attachment; filename="[a-z0-9][a-z0-9-]{0,63}\\.json"$' },
    },
    'WWW-Authenticate': { description: 'RFC 6750 challenge.', required: true, schema: { type: 'string', pattern: '^Bearer( |$)' } },
    Allow: { description: 'The methods the path takes.', required: true, schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' } },
    Location: { description: 'Where the resource lives.', required: true, schema: { type: 'string', pattern: '^/__sim' } },
    'Retry-After': { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
  },
  responses: {
    BadRequest: {
      description:
        'invalid_request: the X-Sim-Session header is not a session id (1 to 128 letters, digits and . _ : -), sessions are turned off, a query field is not valid or given twice, or the request path has a bad percent-encoding.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
    Unauthorized: {
      description: 'unauthorized: the server has an admin token and the request does not carry it as a bearer token.',
      headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
    Forbidden: {
      description:
        'forbidden_origin (a web page of another origin; --admin-origins lets one in) or forbidden_host (a Host header the server does not answer for; --allowed-hosts). Nothing was read or changed.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
    NotFound: {
      description: 'not_found: no admin endpoint or file at this path (and every /__sim path with the admin API turned off).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
    MethodNotAllowed: {
      description:
        'method_not_allowed: the path exists, not with this method. Allow names the methods it takes. Not listed under the operations, since no documented operation answers it: every method a path does not document gets it.',
      headers: { Allow: { $ref: '#/components/headers/Allow' } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
    PayloadTooLarge: {
      description: 'payload_too_large: the body is larger than the server accepts (--body-limit, default 1 MiB).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
    InvalidOrderId: {
      description: 'invalid_order_id: the path id is not a decimal int64; or invalid_request for the X-Sim-Session header.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
    OrderNotFound: {
      description: 'order_not_found: no order has that id in this state.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
    UnexpectedError: {
      description: 'Any other failure, such as 500 internal_error: always an Error body, never a stack trace.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
  },
}
