import type { Page } from '@playwright/test'
import type { Language } from '../../domain/i18n'
import { APP_ROUTES } from '../../domain/routes'
import { ownClientAddress } from './support/accounts'
import { MY_ACCOUNT_PAGES } from './support/every-page'
import { expect, test } from './support/test'

// Every page's header title, on the narrowest phone (320 px) and in both languages: never blank,
// and never broken inside a word ('Datos del cliente' once read 'Datos del clien/te' beside the
// header's Client Records button). Every route of the route table is visited, so a new route is
// checked without this file being touched.

test.use(ownClientAddress)
test.use({ viewport: { width: 320, height: 640 } })

/** A browser path for each pattern of the route table. */
const SAMPLE_PATHS: Record<string, string[]> = {
  '/signup/:code': ['/signup/A1B2C3D4'],
  // My Account's own pages each have their title.
  '/my-account/*': MY_ACCOUNT_PAGES,
  // The panel pages' titles are the panels' own names, the longest ones included.
  '/panel-info/:id': Array.from({ length: 16 }, (_, i) => `/panel-info/${pad(i + 1)}`),
  '/harmonizing-screen/:id': Array.from(
    { length: 16 },
    (_, i) => `/harmonizing-screen/${pad(i + 1)}`,
  ),
}

function pad(n: number) {
  return String(n).padStart(2, '0')
}

// Signing out would end the member's session for the pages after it; it is visited last.
const routes = [...APP_ROUTES].sort(
  (a, b) => Number(a.path === '/logout') - Number(b.path === '/logout'),
)
const paths = (access: 'visitor' | 'member') =>
  routes
    .filter((route) => (route.access === 'public') === (access === 'visitor'))
    .flatMap((route) => SAMPLE_PATHS[route.path] ?? [route.path])

interface Line {
  text: string
  /** Words laid out over more than one line. */
  split: string[]
  overflows: boolean
}

/**
 * The header's title and subtitle as laid out: each word's boxes (Range.getClientRects) must sit
 * on one line; a word broken across two has boxes at two heights.
 */
async function headerLines(page: Page): Promise<Line[]> {
  return page.getByTestId(/^header-(title|subtitle)$/).evaluateAll((elements) =>
    elements.map((element) => {
      const split: string[] = []
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange()
          range.setStart(node, word.index)
          range.setEnd(node, word.index + word[0].length)
          const tops = new Set(
            [...range.getClientRects()]
              .filter((rect) => rect.width > 0)
              .map((rect) => Math.round(rect.top)),
          )
          if (tops.size > 1) split.push(word[0])
        }
      }
      return {
        text: element.textContent ?? '',
        split,
        overflows: element.scrollWidth > element.clientWidth,
      }
    }),
  )
}

async function expectTitleWhole(page: Page, path: string) {
  await page.goto(path)
  const title = page.getByTestId('header-title')
  // Blank until the page's code names it would be blank to the reader too: waited on, then
  // required.
  await expect(title, `the header title of ${path}`).not.toBeEmpty()
  await expect(title).toHaveJSProperty('tagName', 'H1')
  // Pages that load their title (a panel's name) or their header's buttons settle first.
  await expect(page.getByTestId('header-title')).not.toHaveText(/…|\.\.\.$/)
  for (const line of await headerLines(page)) {
    expect.soft(line.split, `words broken across lines in "${line.text}" (${path})`).toEqual([])
    expect.soft(line.overflows, `"${line.text}" wider than its box (${path})`).toBe(false)
  }
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect.soft(sideways, `the page scrolls sideways (${path})`).toBeLessThanOrEqual(0)
}

for (const [language, locale] of [
  ['en', 'en-US'],
  ['es', 'es-ES'],
] as const satisfies [Language, string][]) {
  test.describe(`in ${language}`, () => {
    test.use({ locale })

    test('a visitor’s pages have whole header titles', async ({ page }) => {
      for (const path of paths('visitor')) await expectTitleWhole(page, path)
    })

    test.describe('a member with access', () => {
      // The console refuses a member who is no operator (403), under its own title.
      test.use({ memberOptions: { access: true, language }, allowedConsoleErrors: /status of 403/ })

      test('sees whole header titles on every page', async ({ page, member: _ }) => {
        test.setTimeout(180_000)
        for (const path of paths('member')) await expectTitleWhole(page, path)
      })
    })
  })
}
