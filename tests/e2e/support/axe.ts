import { AxeBuilder } from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/**
 * Runs axe-core on the page as it is now and fails the test on any serious or critical
 * violation (moderate and minor ones are not the gate). Call it once the page shows what it is
 * for. The check is soft: the test goes on, so a violation never hides what the rest would find.
 */
export async function expectAccessible(page: Page, label = new URL(page.url()).pathname) {
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).analyze()
  const blocking = violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({
      rule: `${id} (${impact}): ${help}`,
      where: nodes.map((node) => `${node.target.join(' ')} — ${node.failureSummary ?? ''}`),
    }))
  expect.soft(blocking, `serious or critical axe-core violations on ${label}`).toEqual([])
}
