import type { Page } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { shownAsTimePasses } from './support/clock'
import { expect, test } from './support/test'

// The information pages (issue 12): each opens from the side menu (or, for Terms of Use and
// Help, which the spec's menu does not list, from the page that leads to it) with the header
// title of spec core §2, in English and Spanish; the How-To guides are PDFs in the page's
// language.

interface InfoPage {
  path: string
  testId: string
  /** The side-menu entry, or the page and link that lead to it. */
  from: { menu: string } | { page: string; link: string }
  /** The header's title: blank on about, solfeggio, messages and privacy (spec core §2). */
  title: string
  heading: string
}

const PAGES: Record<'en' | 'es', InfoPage[]> = {
  en: [
    {
      path: '/about',
      testId: 'about-page',
      from: { menu: 'About' },
      title: 'About',
      heading: 'About Harmonize',
    },
    {
      path: '/solfeggio-frequencies',
      testId: 'solfeggio-page',
      from: { menu: 'Solfeggio science' },
      title: 'Solfeggio Frequencies',
      heading: 'Solfeggio frequencies',
    },
    {
      path: '/disclaimer',
      testId: 'disclaimer-page',
      from: { menu: 'Medical Disclaimer' },
      title: 'Medical Disclaimer',
      heading: 'Medical Disclaimer',
    },
    {
      path: '/messages',
      testId: 'messages-page',
      from: { menu: 'Messages in Water' },
      title: 'Messages in Water',
      heading: 'Messages in Water',
    },
    {
      path: '/privacy-policy',
      testId: 'privacy-page',
      from: { menu: 'Privacy Policy & Terms' },
      title: 'Privacy Policy',
      heading: 'Privacy Policy',
    },
    {
      path: '/terms-of-use',
      testId: 'terms-page',
      from: { page: '/privacy-policy', link: 'Read the Terms of Use' },
      title: 'Terms of Use',
      heading: 'Terms of Use',
    },
    {
      path: '/how-to',
      testId: 'how-to-page',
      from: { menu: 'How-To' },
      title: 'How-To',
      heading: 'How to use Harmonize',
    },
    {
      path: '/help',
      testId: 'help-page',
      from: { page: '/how-to', link: 'More questions? Visit Help' },
      title: 'Help',
      heading: 'Help',
    },
  ],
  es: [
    {
      path: '/about',
      testId: 'about-page',
      from: { menu: 'Acerca de' },
      title: 'Acerca de',
      heading: 'Acerca de Harmonize',
    },
    {
      path: '/solfeggio-frequencies',
      testId: 'solfeggio-page',
      from: { menu: 'Ciencia del Solfeggio' },
      title: 'Frecuencias Solfeggio',
      heading: 'Frecuencias Solfeggio',
    },
    {
      path: '/disclaimer',
      testId: 'disclaimer-page',
      from: { menu: 'Aviso médico' },
      title: 'Aviso médico',
      heading: 'Aviso médico',
    },
    {
      path: '/messages',
      testId: 'messages-page',
      from: { menu: 'Mensajes en el agua' },
      title: 'Mensajes en el agua',
      heading: 'Mensajes en el agua',
    },
    {
      path: '/privacy-policy',
      testId: 'privacy-page',
      from: { menu: 'Privacidad y términos' },
      title: 'Política de privacidad',
      heading: 'Política de privacidad',
    },
    {
      path: '/terms-of-use',
      testId: 'terms-page',
      from: { page: '/privacy-policy', link: 'Leer las condiciones de uso' },
      title: 'Condiciones de uso',
      heading: 'Condiciones de uso',
    },
    {
      path: '/how-to',
      testId: 'how-to-page',
      from: { menu: 'Cómo se usa' },
      title: 'Cómo se usa',
      heading: 'Cómo se usa Harmonize',
    },
    {
      path: '/help',
      testId: 'help-page',
      from: { page: '/how-to', link: '¿Más preguntas? Visita la Ayuda' },
      title: 'Ayuda',
      heading: 'Ayuda',
    },
  ],
}

const MENU_BUTTON = { en: 'Open menu', es: 'Abrir menú' }

const GUIDE_FILES = {
  en: {
    'sign-up': 'harmonize-sign-up-guide.pdf',
    troubleshooting: 'harmonize-trouble-shooting.pdf',
  },
  es: {
    'sign-up': 'harmonize-guia-de-registro.pdf',
    troubleshooting: 'harmonize-solucion-de-problemas.pdf',
  },
}

async function openFromMenu(page: Page, language: 'en' | 'es', entry: string) {
  await page.getByRole('button', { name: MENU_BUTTON[language] }).click()
  const menu = page.getByTestId('side-menu')
  await menu.getByRole('link', { name: entry, exact: true }).click()
  await expect(menu).toBeHidden()
}

async function expectInfoPage(page: Page, info: InfoPage) {
  await expect(page).toHaveURL(new RegExp(`${info.path}$`))
  const article = page.getByTestId(info.testId)
  await expect(article.getByRole('heading', { level: 1 })).toHaveText(info.heading)
  await expect(page.getByTestId('header-title')).toHaveText(info.title)
}

for (const language of ['en', 'es'] as const) {
  test(`every information page opens from the side menu with its title, in ${language}`, async ({
    page,
    member: _,
  }) => {
    await page.goto('/home')
    if (language === 'es') {
      await page.getByLabel('Choose language').selectOption({ label: 'Español' })
      await expect(page.locator('html')).toHaveAttribute('lang', 'es')
    }
    for (const info of PAGES[language]) {
      if ('menu' in info.from) {
        await openFromMenu(page, language, info.from.menu)
      } else {
        const way = info.from
        const leading = PAGES[language].find((other) => other.path === way.page)
        if (!leading || !('menu' in leading.from)) throw new Error(`no way to ${info.path}`)
        await openFromMenu(page, language, leading.from.menu)
        await page.getByRole('link', { name: way.link }).click()
      }
      await expectInfoPage(page, info)
      await expectAccessible(page, `${info.path} in ${language}`)
      await page.screenshot({
        path: test.info().outputPath(`${language}${info.path.replace('/', '-')}-desktop.png`),
        fullPage: true,
      })
    }
  })
}

test.describe('for a member', () => {
  test('an information page opened after another shows at once: they share their code', async ({
    page,
    member: _,
  }) => {
    const about = PAGES.en.find((info) => info.path === '/about')
    const privacy = PAGES.en.find((info) => info.path === '/privacy-policy')
    if (!about || !privacy) throw new Error('no about or privacy page')
    // React reveals a page that had to wait for its code 300 ms after its spinner, on the page's
    // clock; with that clock stopped, only a page shown at once can appear.
    await page.clock.install()
    await page.clock.pauseAt(Date.now() + 1000)
    await page.goto(about.path)
    await shownAsTimePasses(page.getByTestId(about.testId))
    await page.getByRole('link', { name: 'View Privacy Policy & Terms of Service' }).click()
    await expectInfoPage(page, privacy)
  })

  test('the pages lead on: about to the policy, the policy back to support', async ({
    page,
    member: _,
  }) => {
    await page.goto('/about')
    await page.getByRole('link', { name: 'View Privacy Policy & Terms of Service' }).click()
    await expect(page).toHaveURL(/\/privacy-policy$/)
    const policy = page.getByTestId('privacy-page')
    await expect(policy.getByText(/^Last updated: \w+ \d{1,2}, \d{4}$/)).toBeVisible()
    // The contact is the server's SUPPORT_EMAIL, as a link to write to it.
    await expect(page.getByTestId('info-contact').getByRole('link')).toHaveAttribute(
      'href',
      /^mailto:.+@.+/,
    )
    await page.getByRole('link', { name: 'Go Back' }).click()
    await expect(page).toHaveURL(/\/support$/)
    await expect(page.getByTestId('header-title')).toHaveText('Support')
  })

  test('the disclaimer says plainly what the app is and is not', async ({ page, member: _ }) => {
    await page.goto('/disclaimer')
    const disclaimer = page.getByTestId('disclaimer-page')
    await expect(disclaimer).toContainText('Harmonize is a relaxation ritual')
    await expect(disclaimer).toContainText(
      'It does not diagnose, treat, cure or prevent any illness or condition.',
    )
    await expect(disclaimer).toContainText(
      'The readings of the aura and chakra scans are generated by the app at random.',
    )
  })

  test('the Solfeggio page draws the nine tones, and How-To shows a session that can pause', async ({
    page,
    member: _,
  }) => {
    await page.goto('/solfeggio-frequencies')
    const chart = page.getByRole('img', { name: /The nine Solfeggio tones/ })
    await expect(chart).toBeVisible()
    await expect(chart.locator('path')).toHaveCount(9)
    await expect(chart).toContainText('528 Hz')

    await page.goto('/how-to')
    const demo = page.getByTestId('session-demo')
    await expect(demo.getByRole('listitem')).toHaveCount(4)
    await demo.getByRole('button', { name: 'Pause the demonstration' }).click()
    await expect(demo).toHaveAttribute('data-paused', 'true')
    await demo.getByRole('button', { name: 'Play the demonstration' }).click()
    await expect(demo).not.toHaveAttribute('data-paused')
  })

  for (const language of ['en', 'es'] as const) {
    test(`the How-To guides open as PDFs in ${language}`, async ({ page, member: _ }) => {
      await page.goto('/how-to')
      if (language === 'es') {
        await page.getByLabel('Choose language').selectOption({ label: 'Español' })
        await expect(page.getByTestId('how-to-page').getByRole('heading', { level: 1 })).toHaveText(
          'Cómo se usa Harmonize',
        )
      }
      for (const guide of ['sign-up', 'troubleshooting'] as const) {
        const link = page.getByTestId(`guide-${guide}`)
        await expect(link).toHaveAttribute('target', '_blank')
        const href = await link.getAttribute('href')
        expect(href).toBe(`/api/info/guides/${guide}?lang=${language}`)
        const pdf = await page.request.get(href ?? '')
        expect(pdf.status()).toBe(200)
        expect(pdf.headers()['content-type']).toBe('application/pdf')
        expect(pdf.headers()['content-disposition']).toBe(
          `inline; filename="${GUIDE_FILES[language][guide]}"`,
        )
        expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-')
      }
    })
  }
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true })

  test('every information page fits the screen', async ({ page, member: _ }) => {
    for (const info of PAGES.en) {
      await page.goto(info.path)
      await expectInfoPage(page, info)
      // Nothing wider than the screen: no sideways scrolling on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      )
      await page.screenshot({
        path: test.info().outputPath(`en${info.path.replace('/', '-')}-phone.png`),
        fullPage: true,
      })
    }
  })
})

test('a visitor reads what they would agree to before signing up; the rest of the member’s menu asks to sign in first', async ({
  page,
}) => {
  for (const path of ['/about', '/terms-of-use', '/privacy-policy', '/disclaimer']) {
    await page.goto(path)
    await expect(page).toHaveURL(new RegExp(`${path}$`))
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible()
  }
  // The policy names where questions about personal data go, to a visitor too.
  await page.goto('/privacy-policy')
  await expect(page.getByTestId('info-contact')).toContainText('@')
  await page.goto('/how-to')
  await expect(page).toHaveURL(/\/login$/)
  const guide = await page.request.get('/api/info/guides/sign-up')
  expect(guide.status()).toBe(401)
})
