import type { Page } from '@playwright/test'
import { shownAsTimePasses } from './support/clock'
import { startDeployedCopy } from './support/deployed-copy'
import { expect, test } from './support/test'

// The install and update banners and the online/offline detector (spec: public flows §2
// Banners, §9 update checker every 60000 ms; core §8 offline notice), in both languages: English
// on a desktop screen, Spanish on a 390 × 844 phone screen.

const LANGUAGES = [
  {
    name: 'English, desktop',
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    signIn: 'Sign In',
    install: 'You can install this app in your device!',
    installAction: 'Install App',
    closeInstall: 'Close the install notice',
    installFromSafari: 'You can install the app from safari and it could be a better option!',
    update: 'There is a new app version!',
    updateAction: 'Update App',
    offline: 'Sorry, it seems that you are offline',
    forgotPassword: 'Forgot your password?',
  },
  {
    name: 'Spanish, phone',
    locale: 'es-ES',
    viewport: { width: 390, height: 844 },
    signIn: 'Iniciar sesión',
    install: '¡Puedes instalar esta aplicación en tu dispositivo!',
    installAction: 'Instalar aplicación',
    closeInstall: 'Cerrar el aviso de instalación',
    installFromSafari:
      'Puedes instalar la aplicación desde Safari, ¡y podría ser una mejor opción!',
    update: '¡Hay una nueva versión de la aplicación!',
    updateAction: 'Actualizar aplicación',
    offline: 'Lo sentimos, parece que no tienes conexión',
    forgotPassword: '¿Olvidaste tu contraseña?',
  },
]

const CHROME_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/138.0.7204.119 Mobile/15E148 Safari/604.1'

/** What Chromium fires when the app can be installed, with a prompt() that counts its calls. */
async function offerInstall(page: Page): Promise<void> {
  const kept = await page.evaluate(() => {
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: async () => {
        const counted = window as unknown as { installPrompts?: number }
        counted.installPrompts = (counted.installPrompts ?? 0) + 1
        return { outcome: 'accepted' }
      },
    })
    window.dispatchEvent(event)
    return event.defaultPrevented
  })
  // The app kept the event (for its own banner) before anything else ran.
  expect(kept).toBe(true)
}

const installPrompts = (page: Page) =>
  page.evaluate(() => (window as unknown as { installPrompts?: number }).installPrompts ?? 0)

async function registered(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
}

for (const text of LANGUAGES) {
  test.describe(text.name, () => {
    test.use({ locale: text.locale, viewport: text.viewport })

    test('a new build deployed while the app is open: the update banner, and Update App loads it', async ({
      page,
    }) => {
      const copy = await startDeployedCopy()
      try {
        await page.clock.install()
        await page.goto(`${copy.url}/login`)
        await registered(page)
        // As an installed app opens: the page comes from the service worker.
        await page.reload()
        await expect(page.getByTestId('header-title')).toHaveText(text.signIn)
        await expect
          .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
          .toBe(true)
        // The browser checks for a new worker by itself after the registration and after each
        // navigation it controls (the service worker spec's "soft update"); the new build is
        // deployed after those, so only the app's own 60 s check can find it.
        await expect.poll(copy.updateChecks).toBe(2)
        await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000)
        copy.deploy('next')
        const banner = page.getByTestId('update-banner')
        await expect(banner).toBeHidden()
        await page.clock.runFor(60_000)
        // The banners' code loads once there is an update to offer, after those 60 s, and React
        // shows it only as more page time passes.
        await shownAsTimePasses(banner)
        await expect(banner).toContainText(text.update)
        expect(copy.updateChecks()).toBe(3)
        await page.screenshot({ path: test.info().outputPath('update-banner.png') })

        let loads = 0
        page.on('load', () => {
          loads += 1
        })
        await banner.getByRole('button', { name: text.updateAction }).click()
        await expect(page.locator('html')).toHaveAttribute('data-build', 'next')
        await expect(page.getByTestId('header-title')).toHaveText(text.signIn)
        await expect(banner).toBeHidden()
        expect(loads).toBe(1)
      } finally {
        await copy.close()
      }
    })

    test('a first visit (no worker in control yet) also updates with one reload', async ({
      page,
    }) => {
      const copy = await startDeployedCopy()
      try {
        await page.clock.install()
        await page.goto(`${copy.url}/login`)
        await registered(page)
        // Only the registration has fetched the worker: this page was not opened through it.
        expect(copy.updateChecks()).toBe(1)
        copy.deploy('next')
        await page.clock.runFor(60_000)
        const banner = page.getByTestId('update-banner')
        await banner.getByRole('button', { name: text.updateAction }).click()
        await expect(page.locator('html')).toHaveAttribute('data-build', 'next')
        await expect(banner).toBeHidden()
      } finally {
        await copy.close()
      }
    })

    test('the install banner opens the browser prompt, and once closed stays closed', async ({
      page,
    }) => {
      await page.goto('/login')
      await expect(page.getByTestId('header-title')).toHaveText(text.signIn)
      const banner = page.getByTestId('install-banner')
      await offerInstall(page)
      await expect(banner).toContainText(text.install)
      await page.screenshot({ path: test.info().outputPath('install-banner.png') })
      await banner.getByRole('button', { name: text.installAction }).click()
      expect(await installPrompts(page)).toBe(1)
      // Chromium's prompt works once.
      await expect(banner).toBeHidden()

      // Each page load brings a new offer, until the banner is closed.
      await page.reload()
      await offerInstall(page)
      await banner.getByRole('button', { name: text.closeInstall }).click()
      await expect(banner).toBeHidden()
      await page.reload()
      await offerInstall(page)
      await expect(page.getByTestId('banners')).toBeAttached()
      await expect(banner).toBeHidden()
    })

    test.describe('network', () => {
      // What the page cannot fetch while offline.
      test.use({ allowedConsoleErrors: /ERR_INTERNET_DISCONNECTED/ })

      test('offline shows the notice, the app keeps working from its cache, back online hides it', async ({
        page,
        context,
      }) => {
        await page.clock.install()
        await page.goto('/login')
        await registered(page)
        // Frozen time: the snackbar's own 6 s timer cannot be what hides the notice.
        await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000)
        const notice = page.getByTestId('snackbar')

        await context.setOffline(true)
        await expect(notice).toHaveText(text.offline)
        await expect(notice).toHaveAttribute('data-severity', 'info')
        // A page not opened yet comes from the cache.
        await page.getByRole('link', { name: text.forgotPassword }).click()
        await expect(page.getByTestId('header-title')).toHaveText(text.forgotPassword)
        await expect(notice).toHaveText(text.offline)
        await context.setOffline(false)
        await expect(notice).toBeHidden()

        // Started without a network: the page comes from the cache and says so.
        await context.setOffline(true)
        await page.reload()
        await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000)
        await expect(page.getByTestId('header-title')).toHaveText(text.forgotPassword)
        await expect(notice).toHaveText(text.offline)
        await context.setOffline(false)
        await expect(notice).toBeHidden()
      })
    })
  })
}

test('a closed update banner stays closed for that version, and a newer one shows it again', async ({
  page,
}) => {
  const copy = await startDeployedCopy()
  /** Deploys a build once the browser's own checks are done, then lets 60 s pass. */
  const deployAndWait = async (build: string, checksSoFar: number) => {
    await expect.poll(copy.updateChecks).toBe(checksSoFar)
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000)
    copy.deploy(build)
    await page.clock.runFor(60_000)
  }
  try {
    await page.clock.install()
    await page.goto(`${copy.url}/login`)
    await registered(page)
    await page.reload()
    const banner = page.getByTestId('update-banner')
    // Checks: the registration's, the reload's.
    await deployAndWait('next', 2)
    await shownAsTimePasses(banner)
    await banner.getByRole('button', { name: 'Close the update notice' }).click()
    await expect(banner).toBeHidden()

    // The new worker still waits: the app hears of it again at start, and keeps quiet. The app
    // starts its service-worker code once the page is shown, in an idle moment (at most 2 s
    // later), so the paused clock has to move for it.
    await page.reload()
    await expect
      .poll(async () => {
        await page.clock.runFor(500)
        return page.getByTestId('banners').count()
      })
      .toBe(1)
    await expect(banner).toBeHidden()

    // The 60 s check, then the reload's.
    await deployAndWait('third', 4)
    await expect(banner).toContainText('There is a new app version!')
    await banner.getByRole('button', { name: 'Update App' }).click()
    await expect(page.locator('html')).toHaveAttribute('data-build', 'third')
  } finally {
    await copy.close()
  }
})

test.describe('iOS outside Safari', () => {
  test.use({ userAgent: CHROME_ON_IPHONE, viewport: { width: 390, height: 844 } })

  test('points to Safari, with no install button, and can be closed', async ({ page }) => {
    await page.goto('/login')
    const banner = page.getByTestId('install-banner')
    await expect(banner).toHaveText(LANGUAGES[0]?.installFromSafari ?? '')
    await page.screenshot({ path: test.info().outputPath('install-from-safari.png') })
    await expect(banner.getByRole('button')).toHaveCount(1)
    await banner.getByRole('button', { name: 'Close the install notice' }).click()
    await expect(banner).toBeHidden()
    await page.reload()
    await expect(page.getByTestId('banners')).toBeAttached()
    await expect(banner).toBeHidden()
  })
})
