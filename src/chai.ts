import { toHaveReceived } from './core/simulator/to-have-received.js'
import type { RequestFilter } from './core/state/request-filter.js'

/** The part of chai's assertion a plugin's method uses. */
interface ChaiAssertion {
  assert(passed: boolean, message: string, negatedMessage: string): void
}

/** The part of chai a plugin is handed by `chai.use(plugin)`. */
interface Chai {
  Assertion: { addMethod(name: string, method: (this: ChaiAssertion, ...args: never[]) => void): void }
}

/** chai's utilities, the plugin's second argument. */
interface ChaiUtils {
  flag(assertion: object, name: string): unknown
}

declare global {
  namespace Chai {
    interface Assertion {
      /**
       * Passes when the simulator (or session) received a request matching `filter`:
       * at least once, or exactly `times`. Fails with the message of vitest's `toHaveReceived`.
       * @example
       * expect(sim).to.have.received({ operation: 'cancelOrder', orderId: 5, status: 204 }, { times: 1 })
       */
      received(filter?: RequestFilter, options?: { times?: number }): Assertion
    }
  }
}

/**
 * A chai plugin adding `expect(sim).to.have.received(filter, { times })`
 * (and `.not`), with the verdict and failure message of vitest's and Jest's
 * `toHaveReceived`.
 * @example
 * import * as chai from 'chai'
 * import received from 'petstore-orders-simulator/chai'
 * chai.use(received)
 */
export default function receivedPlugin(chai: Chai, utils: ChaiUtils): void {
  chai.Assertion.addMethod('received', function (this: ChaiAssertion, filter?: RequestFilter, options?: { times?: number }) {
    const { pass, message } = toHaveReceived(utils.flag(this, 'negate') === true, utils.flag(this, 'object'), filter, options)
    // chai turns `pass` round itself under .not; the message is already the one for the way it was asked.
    const text = message()
    this.assert(pass, text, text)
  })
}

export type { RequestFilter }
