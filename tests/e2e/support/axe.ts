import { AxeBuilder } from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/**
 * Runs axe-core on the page as it is now and fails the test on any serious or critical
 * violation (moderate and minor ones are not the gate). Call it once the page shows what it is
 * for. The check is soft: the test goes on, so a violation never hides what the rest would find.
 */
export async function expectAccessible(page: Page, label = new URL(page.url()).pathname) {
  await transitionsSettled(page)
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).analyze()
  const blocking = violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({
      rule: `${id} (${impact}): ${help}`,
      where: nodes.map((node) => `${node.target.join(' ')} — ${node.failureSummary ?? ''}`),
    }))
  // The rules go in the message's first line: a run's summary shows only that line.
  const rules = blocking.map(({ rule }) => rule.split(' ')[0]).join(', ')
  expect.soft(blocking, `serious or critical axe-core violations on ${label}: ${rules}`).toEqual([])
}

/**
 * Waits for every finite CSS transition and animation to end. A colour read halfway through one
 * (a button fading from its disabled grey to the brand colour as a form becomes sendable) has a
 * contrast that no user ever sees for long, and failed CI once. Spinners run forever and are left.
 */
async function transitionsSettled(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  )
}
