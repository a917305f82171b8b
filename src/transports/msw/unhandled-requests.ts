/** What msw does with a request that no handler takes. */
export type UnhandledRequestStrategy = 'bypass' | 'warn' | 'error'

const MSW_2_NAME = 'onUnhandledRequest'
const MSW_3_NAME = 'onUnhandledFrame'

/**
 * msw 3 renamed `onUnhandledRequest` to `onUnhandledFrame` and ignores the
 * old name without a word. Its `setupServer` and `setupWorker` objects are
 * the ones with a `readyState`.
 */
function optionName(api: object): typeof MSW_2_NAME | typeof MSW_3_NAME {
  return 'readyState' in api ? MSW_3_NAME : MSW_2_NAME
}

/**
 * The options for `listen()` or `start()` of `api`, with the strategy for
 * unhandled requests under the name that msw understands: `strategy` when
 * given, else what `options` holds under either name, else `fallback`.
 */
export function withUnhandledStrategy<T extends object>(
  api: object,
  options: T | undefined,
  strategy: UnhandledRequestStrategy | undefined,
  fallback?: UnhandledRequestStrategy,
): T {
  const { [MSW_2_NAME]: asRequest, [MSW_3_NAME]: asFrame, ...rest } = (options ?? {}) as Record<string, unknown>
  const chosen = strategy ?? asFrame ?? asRequest ?? fallback
  return (chosen === undefined ? rest : { ...rest, [optionName(api)]: chosen }) as T
}
