import { type ChildProcess, spawn } from 'node:child_process'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { AdminOperation } from '../src/core/admin/admin-operation.js'
import { ADMIN_OPERATIONS } from '../src/core/admin/admin-table.js'
import { CLI, ROOT, useProcesses } from './support/cli-process.js'
import { KEY } from './support/harness.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// Each test starts the built command as a process: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

// The admin app and the answer checker load in set-up, not in the first test that calls /__sim.
useAdminApi()

const serve = useAppServers()
const run = useProcesses()
const auth = { Authorization: `Bearer ${KEY}` }
const clients: Client[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

/** The SDK's own client, starting `petstore-sim mcp` as an assistant does. */
async function connect(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' })
  const { PATH = '' } = process.env
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env: { PATH, ...env }, cwd: ROOT, stderr: 'pipe' }),
  )
  clients.push(client)
  return client
}

const started: ChildProcess[] = []
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL')
})

/** `petstore-sim mcp --url <origin>` with its stdin to write to and its output read; killed after the test. */
function startMcp(origin: string) {
  const child = spawn(process.execPath, [CLI, 'mcp', '--url', origin], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
  started.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  return { child, stdout: () => stdout, stderr: () => stderr, exited }
}

type Result = Awaited<ReturnType<Client['callTool']>>
const jsonOf = (result: Result) => JSON.parse((result.content as { text: string }[])[0]?.text ?? '') as unknown

const toolIds = (Object.entries(ADMIN_OPERATIONS) as [string, AdminOperation][])
  .filter(([, operation]) => operation.run !== undefined && operation.page !== true && operation.probe !== true)
  .map(([id]) => id)

describe('petstore-sim mcp (stdio)', () => {
  test('drives a running server: the tools, reset then a 409 cancel, listRequests, a tool error, session', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const client = await connect(['--url', origin])
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(toolIds)
    expect(jsonOf(await client.callTool({ name: 'reset', arguments: { scenario: 'shipped' } }))).toMatchObject({ scenario: 'shipped' })
    expect((await fetch(`${origin}/v1/store/orders/2`, { method: 'DELETE', headers: auth })).status).toBe(409)
    expect(jsonOf(await client.callTool({ name: 'listRequests', arguments: {} }))).toMatchObject([
      { method: 'DELETE', path: '/v1/store/orders/2', status: 409 },
    ])
    const bad = await client.callTool({ name: 'advanceClock', arguments: { advance: 'soon' } })
    expect(bad.isError).toBe(true)
    expect(jsonOf(bad)).toMatchObject({ code: 'invalid_request', status: 400, message: expect.stringContaining('advance') })
    await client.callTool({ name: 'addOrder', arguments: { petId: 5, session: 'qa-7' } })
    expect(sim.orders()).toHaveLength(3)
    expect(jsonOf(await client.callTool({ name: 'listAdminOrders', arguments: { session: 'qa-7' } }))).toHaveLength(4)
  })

  test('takes the admin token from PETSTORE_SIM_ADMIN_TOKEN; without it, a refusal the assistant can read', async () => {
    const { origin } = await serve({ scenario: 'pending', adminToken: 's3cret' })
    const without = await connect(['--url', origin])
    const refused = await without.callTool({ name: 'getState', arguments: {} })
    expect(refused.isError).toBe(true)
    expect(jsonOf(refused)).toMatchObject({ status: 401, message: expect.stringContaining('set PETSTORE_SIM_ADMIN_TOKEN') })
    const withToken = await connect(['--url', origin], { PETSTORE_SIM_ADMIN_TOKEN: 's3cret' })
    expect(jsonOf(await withToken.callTool({ name: 'getState', arguments: {} }))).toMatchObject({ scenario: 'pending' })
  })

  test('a server that does not answer is a tool error naming it', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const client = await connect(['--url', origin.replace(/:\d+$/, ':9')])
    const result = await client.callTool({ name: 'getState', arguments: {} })
    expect(result.isError).toBe(true)
    expect(jsonOf(result)).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('127.0.0.1:9') })
  })

  test('a session argument that is no session id is the 400 a bad X-Sim-Session gets, as over POST /__sim/mcp, and opens no session', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const stdio = await connect(['--url', origin])
    const overHttp = new Client({ name: 'test', version: '1.0.0' })
    await overHttp.connect(new StreamableHTTPClientTransport(new URL(`${origin}/__sim/mcp`)))
    clients.push(overHttp)
    // The header carries the first two as they are; fetch would refuse the line break and the emoji, trim the
    // spaces (acting on session qa-1) and send no header for the empty one (acting on the default state).
    for (const session of ['bad id with spaces', 'x'.repeat(300), 'bad\nid', '😀', ' qa-1 ', '']) {
      const result = await stdio.callTool({ name: 'getState', arguments: { session } })
      expect(result.isError, JSON.stringify(session)).toBe(true)
      const body = jsonOf(result)
      expect(body).toEqual({
        code: 'invalid_request',
        status: 400,
        message: expect.stringMatching(/^Invalid session id .*: use 1 to 128 letters, digits and \. _ : - characters\.$/),
      })
      expect(body).toEqual(jsonOf(await overHttp.callTool({ name: 'getState', arguments: { session } })))
    }
    for (const session of ['bad id with spaces', 'x'.repeat(300)]) {
      const header = await fetch(`${origin}/__sim/state`, { headers: { 'X-Sim-Session': session } })
      expect(header.status).toBe(400)
      expect(jsonOf(await stdio.callTool({ name: 'getState', arguments: { session } }))).toEqual(await header.json())
    }
    expect(sim.sessions()).toEqual([])
  })

  test('a PETSTORE_SIM_ADMIN_TOKEN that is no bearer token is one line and exit 2, the token not echoed', async () => {
    const bad = run(process.execPath, [CLI, 'mcp', '--url', 'http://127.0.0.1:9'], { PETSTORE_SIM_ADMIN_TOKEN: 'two words\nsecret-part' })
    expect(await bad.exited).toBe(2)
    expect(bad.stderr().trim().split('\n')).toEqual([
      'PETSTORE_SIM_ADMIN_TOKEN must be one word of letters, digits and -._~+/ characters (it is sent as a bearer token).',
    ])
    expect(bad.stdout()).toBe('')
  })

  test('stdout carries nothing but MCP messages, every request answered even when input ends right after it', async () => {
    const { origin } = await serve({ scenario: 'shipped' })
    const { child, stdout, stderr, exited } = startMcp(origin)
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'getState', arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'resources/list' },
      // Piped one after the other, run one after the other: the list sees the reset's state.
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'reset', arguments: { scenario: 'pending', session: 's1' } } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'listAdminOrders', arguments: { session: 's1' } } },
    ]
    child.stdin.end(`${messages.map((message) => JSON.stringify(message)).join('\n')}\n`)
    expect(await exited).toBe(0)
    const answers = stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result: Result })
    // JSON-RPC answers in any order: a tool call that waits on the server may come after a quick one.
    expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2, 3, 4, 5])
    const listed = jsonOf(answers.find((answer) => answer.id === 5)?.result as Result) as { status: string }[]
    expect(listed.map((order) => order.status)).toEqual(['pending', 'pending', 'pending'])
    expect(stderr()).toContain(`for the simulator at ${origin}`)
  })

  test('--help tells the usage; a bad --url or an unknown flag is one line and exit 2', async () => {
    const help = run(process.execPath, [CLI, 'mcp', '--help'])
    expect(await help.exited).toBe(0)
    expect(help.stdout()).toMatch(/^Usage: petstore-sim mcp \[--url <server>\]/)
    expect(help.stdout()).toContain('PETSTORE_SIM_ADMIN_TOKEN')
    const badUrl = run(process.execPath, [CLI, 'mcp', '--url', 'ftp://x'])
    expect(await badUrl.exited).toBe(2)
    expect(badUrl.stderr().trim().split('\n')).toHaveLength(1)
    expect(badUrl.stderr()).toContain('--url must be an http or https address')
    const withPath = run(process.execPath, [CLI, 'mcp', '--url', 'http://127.0.0.1:4010/api'])
    expect(await withPath.exited).toBe(2)
    expect(withPath.stderr()).toContain("--url is the simulator's origin only")
    const typo = run(process.execPath, [CLI, 'mcp', '--ulr', 'http://127.0.0.1:4010'])
    expect(await typo.exited).toBe(2)
    expect(typo.stderr()).toContain('Did you mean --url?')
    expect(typo.stdout()).toBe('')
  })

  test("a number past 2^53 is refused naming it (stdio's JSON reading has lost its digits); what is no MCP message is said on stderr", async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const { child, stdout, stderr, exited } = startMcp(origin)
    child.stdin.end(
      'hello\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"addOrder","arguments":{"id":9007199254740993}}}\n',
    )
    expect(await exited).toBe(0)
    const answer = JSON.parse(stdout().trim()) as { id: number; result: Result }
    expect(answer.result.isError).toBe(true)
    expect(jsonOf(answer.result)).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('"id" is a number past 2^53') })
    expect(stderr()).toContain('a line that is no MCP message was left unanswered')
  })

  test('an assistant that goes away mid-answer (EPIPE) ends the command quietly', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const { child, stderr, exited } = startMcp(origin)
    const call = (id: number) =>
      `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'getState', arguments: {} } })}\n`
    child.stdout.once('data', () => child.stdout.destroy())
    child.stdin.write(Array.from({ length: 50 }, (_, id) => call(id)).join(''))
    expect(await exited).toBe(0)
    child.stdin.destroy()
    expect(stderr()).not.toMatch(/Error|EPIPE|Warning/)
  })
})
