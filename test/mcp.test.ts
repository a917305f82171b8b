import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { AdminOperation } from '../src/core/admin/admin-operation.js'
import { clientOf } from '../src/core/admin/admin-client.js'
import { ADMIN_OPERATIONS } from '../src/core/admin/admin-table.js'
import { ROOT } from './support/cli-process.js'
import { KEY } from './support/harness.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in set-up, not in the first test that calls /__sim.
useAdminApi()

const serve = useAppServers()
const auth = { Authorization: `Bearer ${KEY}` }
const clients: Client[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

/** The SDK's own client, connected to a server's /__sim/mcp. */
async function connect(origin: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/__sim/mcp`), { requestInit: { headers } }))
  clients.push(client)
  return client
}

// The first POST /__sim/mcp loads the MCP SDK and builds the admin document: set-up, not the first test's.
beforeAll(async () => {
  const { origin } = await serve()
  await (await connect(origin)).listTools()
})

type Result = Awaited<ReturnType<Client['callTool']>>
const textOf = (result: Result) => (result.content as { type: string; text: string }[])[0]?.text ?? ''
const jsonOf = (result: Result) => JSON.parse(textOf(result)) as unknown

/** The table's operations that read or change the state: run by the table, callable by the admin client. */
const stateOperations = (Object.entries(ADMIN_OPERATIONS) as [string, AdminOperation][])
  .filter(([id, operation]) => operation.run !== undefined && operation.probe !== true && id in clientOf(async () => undefined))
  .map(([id, operation]) => ({ id, operation }))
/** The tools the issue names (47), by name. */
const NAMED_IN_ISSUE = [
  'reset',
  'getState',
  'listAdminOrders',
  'addOrder',
  'updateOrder',
  'removeOrder',
  'advanceClock',
  'getClock',
  'addFault',
  'listFaults',
  'removeFault',
  'clearFaults',
  'setLatency',
  'setRateLimit',
  'listRequests',
  'clearRequests',
  'listScenarios',
  'saveScenario',
  'exportScenario',
  'listSessions',
  'endSession',
  'getPact',
]

describe('POST /__sim/mcp', () => {
  test('lists one tool per state operation of the admin table, its summary the description, every one taking session', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const { tools } = await (await connect(origin)).listTools()
    expect(tools.map((tool) => tool.name)).toEqual(stateOperations.map(({ id }) => id))
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(NAMED_IN_ISSUE))
    for (const tool of tools) {
      const { operation } = stateOperations.find(({ id }) => id === tool.name) as { operation: AdminOperation }
      expect(tool.description).toBe(operation.summary)
      expect(tool.inputSchema.type).toBe('object')
      expect(Object.keys(tool.inputSchema.properties ?? {})).toContain('session')
      // Self-contained: no reference into a document the client does not have.
      expect(JSON.stringify(tool.inputSchema)).not.toContain('#/components/')
    }
    const names = tools.map((tool) => tool.name)
    for (const excluded of ['getPanel', 'getDemo', 'streamEvents', 'getAdminOpenApiDocument', 'health', 'listAdminEndpoints', 'mcp'])
      expect(names).not.toContain(excluded)
  })

  test('path, query and body arguments are one object: removeOrder needs orderId, addFault takes the fault fields', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const { tools } = await (await connect(origin)).listTools()
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)?.inputSchema
    expect(schemaOf('removeOrder')?.required).toEqual(['orderId'])
    expect(Object.keys(schemaOf('addFault')?.properties ?? {})).toEqual(expect.arrayContaining(['operation', 'kind', 'status', 'session']))
    expect(schemaOf('addFault')?.required).toEqual(['operation', 'kind'])
    expect(Object.keys(schemaOf('listRequests')?.properties ?? {})).toEqual(['operation', 'method', 'orderId', 'status', 'session'])
    expect(Object.keys(schemaOf('setLatency')?.properties ?? {})).toEqual(['latency', 'session'])
    const client = await connect(origin)
    expect((await client.callTool({ name: 'setLatency', arguments: { latency: '5-10' } })).isError).toBeFalsy()
    expect(jsonOf(await client.callTool({ name: 'getLatency', arguments: {} }))).toMatchObject({ default: { min: 5, max: 10 } })
    expect((await client.callTool({ name: 'setRateLimit', arguments: { rateLimit: '100/60s' } })).isError).toBeFalsy()
    expect(jsonOf(await client.callTool({ name: 'getRateLimit', arguments: {} }))).toMatchObject({ limit: 100, windowSeconds: 60 })
  })

  test('reset to shipped, then a cancel over the API is a 409, and listRequests shows that cancel', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const client = await connect(origin)
    const reset = await client.callTool({ name: 'reset', arguments: { scenario: 'shipped' } })
    expect(reset.isError).toBeFalsy()
    expect(jsonOf(reset)).toMatchObject({ scenario: 'shipped' })
    const cancel = await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: auth })
    expect(cancel.status).toBe(409)
    const requests = await client.callTool({ name: 'listRequests', arguments: { operation: 'cancelOrder' } })
    expect(jsonOf(requests)).toMatchObject([{ method: 'DELETE', path: '/v1/store/orders/1', status: 409 }])
  })

  test('a bad argument is a tool error carrying the Error body, naming the field', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const client = await connect(origin)
    const badKind = await client.callTool({ name: 'addFault', arguments: { operation: 'cancelOrder', kind: 'explode' } })
    expect(badKind.isError).toBe(true)
    expect(jsonOf(badKind)).toMatchObject({ code: 'invalid_request', status: 400, message: expect.stringContaining('kind') })
    const unknown = await client.callTool({ name: 'reset', arguments: { scenarioo: 'shipped' } })
    expect(unknown.isError).toBe(true)
    expect(jsonOf(unknown)).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('"scenarioo"') })
    const missing = await client.callTool({ name: 'removeOrder', arguments: {} })
    expect(jsonOf(missing)).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('"orderId"') })
    const badId = await client.callTool({ name: 'removeOrder', arguments: { orderId: 'abc' } })
    expect(jsonOf(badId)).toMatchObject({ code: 'invalid_order_id', status: 400 })
    const notFound = await client.callTool({ name: 'removeOrder', arguments: { orderId: 999 } })
    expect(jsonOf(notFound)).toMatchObject({ code: 'order_not_found', status: 404 })
    const many = await client.callTool({
      name: 'getState',
      arguments: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`x${i}`, i])),
    })
    expect((jsonOf(many) as { message: string }).message).toContain('"x0", "x1", "x2", "x3", "x4" and 45 more')
    expect(textOf(many).length).toBeLessThan(400)
    // An unknown tool is a protocol error, as MCP's rules have it.
    await expect(client.callTool({ name: 'resett', arguments: {} })).rejects.toThrow(/No tool is named "resett"/)
    const noScenario = await client.callTool({ name: 'reset', arguments: { scenario: 'nope' } })
    expect(noScenario.isError).toBe(true)
    expect(textOf(noScenario)).toContain('nope')
  })

  test('session isolates: a reset in a session leaves the default state and other sessions as they were', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const client = await connect(origin)
    await client.callTool({ name: 'reset', arguments: { scenario: 'shipped', session: 'qa-1' } })
    expect(sim.orders().every((order) => order.status === 'pending')).toBe(true)
    const inSession = jsonOf(await client.callTool({ name: 'listAdminOrders', arguments: { session: 'qa-1' } })) as { status: string }[]
    expect(inSession.map((order) => order.status)).toContain('shipped')
    const cancel = await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: { ...auth, 'X-Sim-Session': 'qa-1' } })
    expect(cancel.status).toBe(409)
    const defaultJournal = jsonOf(await client.callTool({ name: 'listRequests', arguments: {} }))
    expect(defaultJournal).toEqual([])
    expect(jsonOf(await client.callTool({ name: 'listRequests', arguments: { session: 'qa-1' } }))).toHaveLength(1)
    // The call's own X-Sim-Session is the default for its tools.
    const viaHeader = await connect(origin, { 'X-Sim-Session': 'qa-1' })
    expect(jsonOf(await viaHeader.callTool({ name: 'listRequests', arguments: {} }))).toHaveLength(1)
    // A failing call leaves no session behind, named by the argument or by the header.
    await client.callTool({ name: 'reset', arguments: { scenario: 'nope', session: 'qa-2' } })
    const viaNewHeader = await connect(origin, { 'X-Sim-Session': 'qa-3' })
    expect((await viaNewHeader.callTool({ name: 'reset', arguments: { scenario: 'nope' } })).isError).toBe(true)
    expect(sim.sessions().map((session) => session.id)).toEqual(['qa-1'])
  })

  test('an int64 id past 2^53 as a JSON number keeps every digit over HTTP', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const call = (id: number, name: string, args: string) =>
      fetch(`${origin}/__sim/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`,
      }).then((response) => response.json() as Promise<{ result: Result }>)
    expect((await call(1, 'addOrder', '{"id":9007199254740993}')).result.isError).toBeFalsy()
    expect(textOf((await call(2, 'getAdminOrder', '{"orderId":9007199254740993}')).result)).toContain('"id":9007199254740993')
  })

  test('an int64 id past 2^53 given as a string keeps every digit; a bad session id is a tool error naming it', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const client = await connect(origin)
    const big = '9007199254740993'
    const added = await client.callTool({ name: 'addOrder', arguments: { id: big, petId: '9007199254740995' } })
    expect(added.isError).toBeFalsy()
    const found = await client.callTool({ name: 'getAdminOrder', arguments: { orderId: big } })
    expect(textOf(found)).toContain(`"id":${big}`)
    expect(textOf(found)).toContain('"petId":9007199254740995')
    const badSession = await client.callTool({ name: 'getState', arguments: { session: 'no spaces allowed' } })
    expect(badSession.isError).toBe(true)
    expect(jsonOf(badSession)).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/session/i) })
  })

  test('a session argument that is no session id is the very Error a bad X-Sim-Session header gets, and opens no session', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const client = await connect(origin)
    for (const session of ['bad id with spaces', 'x'.repeat(300), 'a\tb', 'é']) {
      const header = await fetch(`${origin}/__sim/state`, { headers: { 'X-Sim-Session': session } })
      expect(header.status).toBe(400)
      const result = await client.callTool({ name: 'getState', arguments: { session } })
      expect(result.isError).toBe(true)
      expect(jsonOf(result)).toEqual(await header.json())
    }
    // What no header can carry as given is refused in the same words.
    for (const session of ['', ' qa-1', 'bad\nid', '😀']) {
      const result = await client.callTool({ name: 'reset', arguments: { scenario: 'shipped', session } })
      expect(result.isError).toBe(true)
      expect(jsonOf(result)).toEqual({
        code: 'invalid_request',
        status: 400,
        message: `Invalid session id ${JSON.stringify(session)}: use 1 to 128 letters, digits and . _ : - characters.`,
      })
    }
    expect(sim.sessions()).toEqual([])
    expect(sim.orders().every((order) => order.status === 'pending')).toBe(true)
  })

  test('a 204 operation says it is done; the contract is readable as resources', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const client = await connect(origin)
    const cleared = await client.callTool({ name: 'clearFaults', arguments: {} })
    expect(cleared.isError).toBeFalsy()
    expect(textOf(cleared)).toBe('Done (204 No Content).')
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.mimeType)).toEqual(['text/markdown', 'application/json'])
    const spec = await client.readResource({ uri: resources[0]?.uri ?? '' })
    expect((spec.contents[0] as { text: string }).text).toMatch(/^# Petstore Orders Service Specification/)
    const openapi = await client.readResource({ uri: resources[1]?.uri ?? '' })
    expect(JSON.parse((openapi.contents[0] as { text: string }).text)).toMatchObject({ openapi: expect.stringMatching(/^3\./) })
    await expect(client.readResource({ uri: 'petstore-sim://nothing' })).rejects.toThrow(/nothing/)
  })

  test("a web page's Origin is refused, the admin token is required where set, and --no-admin turns it off", async () => {
    const { origin } = await serve({ scenario: 'pending' })
    await expect(connect(origin, { Origin: 'https://evil.example' })).rejects.toThrow(/403/)
    const raw = await fetch(`${origin}/__sim/mcp`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(raw.status).toBe(403)
    const locked = await serve({ scenario: 'pending', adminToken: 's3cret' })
    await expect(connect(locked.origin)).rejects.toThrow(/401/)
    const opened = await connect(locked.origin, { Authorization: 'Bearer s3cret' })
    expect((await opened.listTools()).tools.length).toBe(stateOperations.length)
    const off = await serve({ scenario: 'pending', admin: false })
    await expect(connect(off.origin)).rejects.toThrow(/404/)
  })

  test('GET is a 405 (no MCP session to stream); no JSON, no JSON-RPC or a missing Accept is a 400 Error body', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const get = await fetch(`${origin}/__sim/mcp`)
    expect(get.status).toBe(405)
    expect(get.headers.get('Allow')).toBe('POST')
    expect((await fetch(`${origin}/__sim/mcp`, { method: 'DELETE' })).status).toBe(405)
    const bad = await fetch(`${origin}/__sim/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{nope' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 'invalid_request' })
    // What MCP's transport rules refuse is an Error body too, with the SDK's reason.
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const noAccept = await fetch(`${origin}/__sim/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: message })
    expect(noAccept.status).toBe(400)
    expect(await noAccept.json()).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('text/event-stream') })
    const notRpc = await fetch(`${origin}/__sim/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{"hello":1}',
    })
    expect(notRpc.status).toBe(400)
    const batch = await fetch(`${origin}/__sim/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(
        Array.from({ length: 50 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'getState' } })),
      ),
    })
    expect(batch.status).toBe(400)
    expect(await batch.json()).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('batch') })
    expect(await notRpc.json()).toMatchObject({ code: 'invalid_request', status: 400 })
  })
})

test("docs/mcp.md's table names every tool, in the table's order", () => {
  const text = readFileSync(join(ROOT, 'docs/mcp.md'), 'utf8')
  const table = /^\| Tool \| What it does \|[^\n]*\n\|[-|]+\|\n((?:\|[^\n]*\n)+)/m.exec(text)?.[1] ?? ''
  const named = [...table.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1])
  expect(named).toEqual(stateOperations.map(({ id }) => id))
})
