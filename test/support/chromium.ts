import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

/** Debian's chromium (playwright cannot download a browser here); CHROMIUM_PATH names another. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'
export const IN_CI = process.env['CI'] === 'true' || process.env['CI'] === '1'
export const HAVE_CHROMIUM = existsSync(CHROMIUM)
/** Browser tests skip without a browser, except in CI, where they must run. */
export const SKIP_BROWSER_TESTS = !HAVE_CHROMIUM && !IN_CI

/** Says why the tests of `what` do not run here (they never skip in CI), and fails in CI when the browser is missing. */
export function explainBrowserSkip(what: string): void {
  if (SKIP_BROWSER_TESTS)
    console.warn(
      `[browser] Skipping ${what}: no browser at ${CHROMIUM}. Install it with "apt-get install -y chromium" (or set CHROMIUM_PATH). In CI they never skip.`,
    )
}

export function assertChromium(): void {
  if (!HAVE_CHROMIUM)
    throw new Error(`CI is set but there is no Chromium at ${CHROMIUM}: .ci/run must install it (apt-get install -y chromium).`)
}

/** Headless Chromium with the flags this machine needs (no sandbox, no GPU, no background traffic). */
export function launchChromium(): Promise<Browser> {
  assertChromium()
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  })
}
