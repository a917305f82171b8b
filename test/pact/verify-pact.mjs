// Verifies one pact file against one provider with Pact's own Verifier, state
// changes posted to the provider's /__sim/provider-states. Run on Node 22+ from
// this folder (its node_modules hold @pact-foundation/pact); the exit code is the verdict.
// Usage: node verify-pact.mjs <pact file> <provider base URL, ending /v1>
import { Verifier } from '@pact-foundation/pact'

const [pactFile, providerBaseUrl] = process.argv.slice(2)
if (pactFile === undefined || providerBaseUrl === undefined) {
  console.error('Usage: node verify-pact.mjs <pact file> <provider base URL>')
  process.exit(2)
}
const origin = new URL(providerBaseUrl).origin
try {
  await new Verifier({
    provider: 'petstore-orders-service',
    providerBaseUrl,
    pactUrls: [pactFile],
    // Pact's state change as the issue asks: a JSON body { state, params, action }, setup and teardown.
    providerStatesSetupUrl: `${origin}/__sim/provider-states`,
    logLevel: 'warn',
  }).verifyProvider()
  console.log('PACT VERIFICATION: PASSED')
} catch (error) {
  // The error's message repeats the whole report above as JSON.
  console.log(`PACT VERIFICATION: FAILED (${(error instanceof Error ? error.message : String(error)).slice(0, 100)}…)`)
  process.exitCode = 1
}
