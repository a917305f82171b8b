import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { expect, onTestFinished, test } from 'vitest'
import type { AdminClient } from '../../core/admin/admin-client.js'
import { adminTools } from './admin-tools.js'
import { createMcpServer } from './mcp-server.js'

test("a simulator bug in a tool is reported, and the assistant gets a 500 internal_error without the bug's details", async () => {
  const reported: [string, string][] = []
  const failing = new Proxy({} as AdminClient, {
    get: () => () => Promise.reject(new Error('boom: a secret path /home/me')),
  })
  const { server } = createMcpServer({
    tools: adminTools(),
    connect: () => failing,
    readFile: () => '',
    version: '0.0.0',
    report: (error, tool) => reported.push([(error as Error).message, tool]),
  })
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(clientSide)
  onTestFinished(() => client.close())
  const result = await client.callTool({ name: 'getState', arguments: {} })
  expect(result.isError).toBe(true)
  const text = (result.content as { text: string }[])[0]?.text ?? ''
  expect(JSON.parse(text)).toEqual({ code: 'internal_error', status: 500, message: expect.stringContaining('failed unexpectedly') })
  expect(text).not.toContain('secret')
  expect(reported).toEqual([['boom: a secret path /home/me', 'getState']])
})
