/** What msw does with a request that no handler takes. */
export type UnhandledRequestStrategy = 'bypass' | 'warn' | 'error'

const MSW_2_NAME = 'onUnhandledRequest'
const MSW_3_NAME = 'onUnhandledFrame'

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
  // msw 3 renamed the option and ignores the old name without a word; its setupServer and setupWorker have a `readyState`.
  const name = 'readyState' in api ? MSW_3_NAME : MSW_2_NAME
  return (chosen === undefined ? rest : { ...rest, [name]: chosen }) as T
}
