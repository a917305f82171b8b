// What the admin API offers, and the pages it serves: answered by the transport itself (files, a stream, this table's own views).
import { operation } from './admin-operation.js'

const HTML = ['text/html']
export const DISCOVERY_OPERATIONS = {
  listAdminEndpoints: operation({
    method: 'GET',
    path: '',
    tag: 'discovery',
    summary: 'List the admin endpoints',
    description:
      'A line per endpoint for a human or a script. A browser (Accept preferring text/html) is sent to the panel instead, without the token.',
    status: 200,
    answer: { description: 'The endpoints.', schema: 'Endpoints' },
    others: {
      302: { description: 'A browser asked: it is sent to the panel at /__sim/.', media: HTML, headers: { Location: 'Location' } },
    },
  }),
  getAdminOpenApiDocument: operation({
    method: 'GET',
    path: '/openapi.json',
    tag: 'discovery',
    summary: 'This document',
    description: "The admin API's own OpenAPI 3.1 document, as shipped in the package (petstore-orders-simulator/admin-openapi.json).",
    status: 200,
    answer: { description: 'The document.', schema: 'AdminDocument' },
  }),
  health: operation({
    method: 'GET',
    path: '/health',
    tag: 'health',
    probe: true,
    summary: 'Is the simulator up',
    description:
      'For probes and load balancers: no admin token and no API key, any Host header, and also with the admin API turned off (--no-admin). Says nothing about the state. 503 once the server is stopping (SIGTERM), so a balancer takes it out before it goes.',
    status: 200,
    answer: { description: 'It serves.', schema: 'Health' },
    others: { 503: { description: 'It is stopping: requests in flight are being finished.', schema: 'Health' } },
  }),
  streamEvents: operation({
    method: 'GET',
    path: '/events',
    tag: 'discovery',
    summary: 'Server-sent events of one state',
    description:
      'Events of the session named by X-Sim-Session (or the default state), once on connect and then whenever they change: state (as GET /__sim/state), requests ({ reset, entries }: the new journal entries, or all of them with reset true after a clear), controls ({ latency, faults, rateLimit }), coverage (as GET /__sim/coverage) and sessions ([{ id, scenario }]). A comment line every 15 s keeps the stream open. At most 16 streams at once.',
    status: 200,
    answer: {
      description: 'The stream: `event: <name>` and `data: <JSON>` lines, each event ended by a blank line.',
      media: ['text/event-stream'],
    },
    errors: { 503: { description: '16 streams are open already: service_unavailable.', headers: { 'Retry-After': 'Retry-After' } } },
  }),
  mcp: operation({
    method: 'POST',
    path: '/mcp',
    tag: 'discovery',
    protocol: true,
    summary: 'The admin API as Model Context Protocol tools, for coding assistants',
    description:
      "MCP's Streamable HTTP transport, stateless, answering JSON (docs/mcp.md): tools/list gives a tool per admin operation that reads or changes the state, named by its operationId, tools/call runs one (its \"session\" argument, else this call's X-Sim-Session, names the state it acts on), resources/list and resources/read give the service's specification and the order API's OpenAPI document. A refused tool call is a result with isError true and the Error body as its text. What MCP's transport rules refuse (an Accept without both application/json and text/event-stream, a Content-Type other than application/json, a body that is no JSON-RPC message, an unsupported MCP-Protocol-Version) is a 400 invalid_request Error body saying which. GET and DELETE: 405, since the server keeps no MCP session.",
    body: { schema: 'McpMessage', required: true },
    status: 200,
    answer: { description: 'The JSON-RPC answer to a request.', schema: 'McpMessage' },
    others: { 202: { description: 'A notification or a response was accepted: no body.' } },
  }),
  getPanel: operation({
    method: 'GET',
    path: '/',
    tag: 'panel',
    page: true,
    summary: 'The QA panel',
    description:
      'The page that shows and steers the simulator. It needs no token (the page asks for it) and is served with a strict Content-Security-Policy.',
    status: 200,
    answer: {
      description: "The panel's page.",
      media: HTML,
      headers: {
        'Content-Security-Policy': {
          description: 'The page may load its own script and style and call its own origin only.',
          pattern: "frame-ancestors 'none'",
        },
      },
    },
    errors: { 404: 'The panel is not built (npm run build).' },
  }),
  getPanelFile: operation({
    method: 'GET',
    path: '/panel/{file}',
    tag: 'panel',
    page: true,
    summary: 'A static file of the QA panel',
    description: "The panel's script and style (main.js, panel.css). No token needed.",
    params: { file: 'StaticFile' },
    status: 200,
    answer: { description: 'The file.', media: ['text/javascript', 'text/css', 'text/html'] },
    errors: { 404: 'NotFound' },
  }),
  redirectToDemo: operation({
    method: 'GET',
    path: '/demo',
    tag: 'panel',
    page: true,
    summary: 'Where the demo page lives',
    description:
      'Redirects to /__sim/demo/, whose relative URLs need the trailing slash: HTML for a browser, JSON naming the new address for anyone else.',
    status: 301,
    answer: { description: 'The demo page lives at /__sim/demo/.', schema: 'Redirect', media: HTML, headers: { Location: 'Location' } },
  }),
  getDemo: operation({
    method: 'GET',
    path: '/demo/',
    tag: 'panel',
    page: true,
    summary: 'The demo page',
    description: 'A small consumer whose orders an msw service worker answers in the browser. No token needed.',
    status: 200,
    answer: { description: 'The page.', media: HTML },
    errors: { 404: 'The demo page is not built (npm run build).' },
  }),
  getDemoFile: operation({
    method: 'GET',
    path: '/demo/{file}',
    tag: 'panel',
    page: true,
    summary: 'A static file of the demo page',
    description: 'index.html, main.js and mockServiceWorker.js (the worker of the msw that built the page). No token needed.',
    params: { file: 'StaticFile' },
    status: 200,
    answer: { description: 'The file.', media: ['text/javascript', 'text/html'] },
    errors: { 404: 'NotFound' },
  }),
}
