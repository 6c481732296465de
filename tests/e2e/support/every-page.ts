import type { Page } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import type { Language } from '../../../domain/i18n'
import { APP_ROUTES } from '../../../domain/routes'
import { ownClientAddress, type TestUser } from './accounts'
import { expectAccessible } from './axe'
import { saveCard, startFromMyAccount } from './billing'
import { harness } from './harness'
import { expect, test } from './test'

// axe-core on every page of the route table, in English and Spanish, each page as the user it
// is for: a visitor for the sign-in pages and the open ones, a member with access and invoices
// (billing history lists them) for a member's pages, an operator past the second factor for the
// console. No rule is turned off: 0 serious or critical findings, each listed when there are.
// tests/e2e/axe-every-page.spec.ts runs it on a desktop, axe-every-page.mobile.spec.ts on a phone.

/** My Account's own pages, each with its title: the paths behind `/my-account/*`. */
export const MY_ACCOUNT_PAGES = [
  '/my-account',
  '/my-account/add-credit-card',
  '/my-account/single-payment',
  '/my-account/subscribe-payment',
  '/my-account/modify-billing-info',
  '/my-account/billing-history',
]

/** A browser path for each pattern of the route table that has parameters. */
const SAMPLE_PATHS: Record<string, string[]> = {
  '/signup/:code': ['/signup/A1B2C3D4'],
  '/my-account/*': MY_ACCOUNT_PAGES,
  '/panel-info/:id': ['/panel-info/01'],
  '/harmonizing-screen/:id': ['/harmonizing-screen/01'],
  // The console has a test of its own, as an operator.
  '/admin': [],
  // Signing out ends the member's session; the visitor's visit covers it.
  '/logout': [],
}

const pathsOf = (filter: (access: string) => boolean) =>
  APP_ROUTES.filter(({ access }) => filter(access)).flatMap(
    ({ path }) => SAMPLE_PATHS[path] ?? [path],
  )

/** The console's views (client/features/admin/components/console.tsx). */
const CONSOLE_VIEWS = ['overview', 'members', 'codes', 'prices', 'media', 'jobs', 'audit'].map(
  (view) => (view === 'overview' ? '/admin' : `/admin?view=${view}`),
)

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' }

/** The page as it settles: its code and data are in, nothing says it is still loading. */
export async function pageSettled(page: Page) {
  await expect(page.getByTestId('route-spinner')).toHaveCount(0)
  await expect(page.getByTestId('header-title')).not.toBeEmpty()
  await page.waitForLoadState('networkidle')
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
}

async function checkPage(page: Page, path: string, language: Language) {
  await page.goto(path)
  await pageSettled(page)
  await expect(page.locator('html')).toHaveAttribute('lang', language)
  await expectAccessible(page, `${path} (${language}, arrived at ${new URL(page.url()).pathname})`)
}

/** The side menu, open over the page: every page has it, with the user's own links. */
async function checkMenu(page: Page, language: Language) {
  await page.locator('header button[aria-haspopup="dialog"]').click()
  await expect(page.getByTestId('side-menu')).toBeVisible()
  await expectAccessible(page, `the side menu (${language})`)
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('side-menu')).toBeHidden()
}

/** The header's language choice, remembered on this device for the pages after it. */
async function chooseLanguage(page: Page, language: Language) {
  await page.getByTestId('language-select').selectOption({ label: LANGUAGE_NAMES[language] })
  await expect(page.locator('html')).toHaveAttribute('lang', language)
}

/** The panels open, a card saved and a monthly plan bought: billing history has invoices. */
async function buyAPlan(page: Page) {
  await saveCard(page, '4242 4242 4242 4242')
  await startFromMyAccount(page, /SUBSCRIPTION/)
  await page.goto('/my-account/billing-history')
  // A list of cards on a phone, a table wider up.
  await expect(
    page
      .getByTestId(/^invoice-(card|row)$/)
      .filter({ visible: true })
      .first(),
  ).toBeVisible()
}

/** Makes `operator` an operator and passes the second factor, as a first visit does. */
async function openConsole(page: Page, operator: TestUser) {
  await harness('operator', { email: operator.email })
  await page.goto('/admin')
  await page.getByRole('button', { name: 'Set up my authenticator' }).click()
  await page.getByLabel('Your password').fill(operator.password)
  await page.getByRole('button', { name: 'Continue' }).click()
  const key = (await page.getByTestId('factor-key').textContent()) ?? ''
  const authenticator = new TOTP({ secret: Secret.fromBase32(key.replaceAll(' ', '')) })
  await page.getByLabel('The 6-digit code the app shows').fill(authenticator.generate())
  await page.getByRole('button', { name: 'Confirm' }).click()
  await page.getByRole('button', { name: 'I have kept them: open the console' }).click()
  await expect(page.getByTestId('overview')).toBeVisible()
}

/** The tests, for the project (desktop or phone) of the file that calls this. */
export function checkEveryPage() {
  test.use(ownClientAddress)

  for (const language of ['en', 'es'] as const satisfies Language[]) {
    test.describe(`in ${LANGUAGE_NAMES[language]}`, () => {
      test('a visitor’s pages', async ({ page }) => {
        test.setTimeout(180_000)
        await page.goto('/login')
        await chooseLanguage(page, language)
        for (const path of pathsOf((access) => access !== 'protected')) {
          await checkPage(page, path, language)
        }
        await checkMenu(page, language)
        await checkPage(page, '/logout', language)
      })

      test.describe('a member with access and invoices', () => {
        test.use({ memberOptions: { language } })

        test('a member’s pages', async ({ page, member: _ }) => {
          test.setTimeout(300_000)
          await buyAPlan(page)
          await chooseLanguage(page, language)
          for (const path of pathsOf((access) => access !== 'public')) {
            await checkPage(page, path, language)
          }
          await checkMenu(page, language)
        })
      })

      test.describe('an operator', () => {
        test('the console', async ({ page, member: operator }) => {
          test.setTimeout(120_000)
          await openConsole(page, operator)
          await chooseLanguage(page, language)
          // Each of the console's views, and a member's own page (the operator's).
          for (const path of [...CONSOLE_VIEWS, `/admin?member=${operator.id}`]) {
            await checkPage(page, path, language)
          }
        })
      })
    })
  }
}
