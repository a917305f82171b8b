// The one module that imports the Model Context Protocol SDK. The build bundles
// it, with what it imports, into this file's place in dist (scripts/build-vendor.mjs)
// and into dist/cli-mcp.cjs for the command: the package does not install the SDK,
// and only a call of /__sim/mcp or `petstore-sim mcp` loads it.
export { Server } from '@modelcontextprotocol/sdk/server/index.js'
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
export {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
