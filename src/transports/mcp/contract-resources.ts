/** The contract an assistant can read: the service's specification and the order API's OpenAPI document (`file`, in the package). */
export const CONTRACT_RESOURCES = [
  {
    uri: 'petstore-sim://docs/spec.md',
    name: 'spec',
    title: 'Petstore Orders Service specification',
    description: "The whole specification of the service the simulator simulates: endpoints, authentication, errors, the cancel's rules.",
    mimeType: 'text/markdown',
    file: 'docs/spec.md',
  },
  {
    uri: 'petstore-sim://contract/openapi.json',
    name: 'openapi',
    title: 'Order API OpenAPI document',
    description: "The order API's OpenAPI 3.1 document: every answer the simulator gives validates against it.",
    mimeType: 'application/json',
    file: 'src/contract/openapi.json',
  },
] as const
