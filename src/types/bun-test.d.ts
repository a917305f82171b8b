// The part of Bun's own types (@types/bun) that src/bun.ts uses, so that the package builds without Bun.
declare module 'bun:test' {
  interface MatcherResult {
    pass: boolean
    message: () => string
  }
  type Matcher = (this: { isNot: boolean }, received: unknown, ...args: never[]) => MatcherResult
  export const expect: { extend(matchers: Record<string, Matcher>): void }
  export interface Matchers<T = unknown> {}
}
