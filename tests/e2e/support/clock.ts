import type { Locator } from '@playwright/test'
import { expect } from './test'

// React shows what a Suspense boundary waited for (a lazy page, the banners' chunk) no sooner
// than 300 ms after its fallback appeared, and it counts those 300 ms on the page's timers. A
// test that has paused `page.clock` must therefore let some page time pass for that content to
// appear, but no more than it needs: such tests start and check the page's own timers on purpose
// (the deferred service-worker start, the 60 s update check, the snackbar's 6 s).

/**
 * Shorter than the 50 ms after which Playwright's clock runs an idle callback: the step in which
 * (or just before which) React shows the content must not also start the service worker, which
 * waits for the first page and then for an idle moment.
 */
const STEP_MS = 25
/**
 * How often, in real time, the condition is checked and the clock moved. Constant rather than
 * expect.poll's growing intervals: once the content has arrived React's 300 ms take 12 steps,
 * which would otherwise use up most of the expect timeout.
 */
const CHECK_EVERY_MS = 100
/**
 * Page time may pass before React even shows the fallback (a slow page load or service worker
 * install), so the bound is well beyond 300 ms; it stays well short of the page's own timers
 * (10 s and more).
 */
const MOST_MS = 2_000

/**
 * Expects `locator` to become visible on a page whose clock is paused, moving that clock on in
 * small steps only while it is not, by at most 2 s in all.
 */
export async function shownAsTimePasses(locator: Locator): Promise<void> {
  const clock = locator.page().clock
  let passed = 0
  await expect
    .poll(
      async () => {
        if (await locator.isVisible()) return true
        if (passed < MOST_MS) {
          await clock.runFor(STEP_MS)
          passed += STEP_MS
        }
        return false
      },
      {
        message: `${locator} visible within ${MOST_MS} ms of page time`,
        intervals: [CHECK_EVERY_MS],
      },
    )
    .toBe(true)
}
