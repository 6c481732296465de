import type { Locator } from '@playwright/test'
import { expectPanelsOpen } from './support/access'
import { WELCOME } from './support/accounts'
import { expectAccessible } from './support/axe'
import { builtChunkPath } from './support/build-manifest'
import { shownAsTimePasses } from './support/clock'
import { holdBack } from './support/hold-back'
import { expect, test } from './support/test'

/** A colour as the browser paints it, read back as RGB through a canvas (CSS may say lab()). */
async function paintedColour(locator: Locator, property: 'color' | 'backgroundColor') {
  return locator.evaluate((element, name) => {
    const context = document.createElement('canvas').getContext('2d')
    if (!context) throw new Error('no 2D canvas')
    context.fillStyle = getComputedStyle(element)[name]
    context.fillRect(0, 0, 1, 1)
    const [red = 0, green = 0, blue = 0] = context.getImageData(0, 0, 1, 1).data
    return [red, green, blue] as const
  }, property)
}

/** WCAG 2.2 contrast ratio of two sRGB colours. */
function contrast(a: readonly number[], b: readonly number[]): number {
  const luminance = (rgb: readonly number[]) => {
    const [r = 0, g = 0, b = 0] = rgb.map((value) => {
      const channel = value / 255
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
  }
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05)
}

test.describe('app shell for a visitor', () => {
  test('/ and /home land on /login', async ({ page }) => {
    await page.goto('/')
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByTestId('header-title')).toHaveText('Sign In')

    await page.goto('/home')
    await expect(page).toHaveURL(/\/login$/)
  })

  test.describe(() => {
    // The server answers unknown paths with HTTP 404, which Chromium reports in the console.
    test.use({ allowedConsoleErrors: /status of 404/ })

    test('an unknown path shows the 404 page and Go Home leads on', async ({ page }) => {
      const response = await page.goto('/no-such-page')
      expect(response?.status()).toBe(404)
      await expect(page.getByRole('heading', { name: '404 Not Found' })).toBeVisible()
      // The title is the page's h1, in the header.
      await expect(page.getByTestId('header-title')).toHaveText('404 Not Found')
      await expectAccessible(page)
      await page.getByRole('button', { name: 'Go Home' }).click()
      // /home needs a signed-in user, so a visitor ends on the sign-in page.
      await expect(page).toHaveURL(/\/login$/)
    })
  })

  test('switching to Español changes the menu texts and survives a reload', async ({ page }) => {
    await page.goto('/login')
    await page.getByLabel('Choose language').selectOption({ label: 'Español' })
    await expect(page.getByTestId('header-title')).toHaveText('Iniciar sesión')
    await expect(page.locator('html')).toHaveAttribute('lang', 'es')

    await page.getByRole('button', { name: 'Abrir menú' }).click()
    const menu = page.getByTestId('side-menu')
    await expect(menu.getByRole('heading', { name: 'Te damos la bienvenida' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Crear una cuenta' })).toBeVisible()

    await page.reload()
    await expect(page.getByTestId('header-title')).toHaveText('Iniciar sesión')
    await expect(page.getByLabel('Elegir idioma')).toHaveValue('es')
    await page.getByRole('button', { name: 'Abrir menú' }).click()
    await expect(
      page.getByTestId('side-menu').getByRole('link', { name: '¿Olvidaste tu contraseña?' }),
    ).toBeVisible()
  })

  test('a page the server sent as HTML shows at once while its code loads; any other route shows the full-screen blue spinner', async ({
    page,
  }) => {
    // Hold the pages' chunks back so the loading state can be seen.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const pages = [
      builtChunkPath({ src: 'features/auth/routes/login-page.tsx' }),
      builtChunkPath({ src: 'features/auth/routes/signup-page.tsx' }),
    ]
    await page.route(
      (url) => pages.includes(url.pathname),
      async (route) => {
        await held
        await route.continue()
      },
    )
    await page.goto('/login')
    await expect(page.getByRole('heading', { name: WELCOME })).toBeVisible()
    await expect(page.getByLabel('Email')).toBeEditable()
    await expect(page.getByTestId('route-spinner')).toHaveCount(0)

    // An invitation's address is rendered in the browser only: the page reads its code.
    await page.goto('/signup/HARMONY-2026')
    const spinner = page.getByTestId('route-spinner')
    await expect(spinner).toBeVisible()
    // The ring's colour, read back as RGB through a canvas (CSS may report it in lab()). Read
    // afresh each time: the session's spinner gives way to the route's, an identical element.
    const ringColour = () =>
      page.evaluate(() => {
        const ring = document.querySelector('[data-testid="route-spinner"] > div')
        const context = document.createElement('canvas').getContext('2d')
        if (!ring || !context) return { red: 0, green: 0, blue: 0 }
        context.fillStyle = getComputedStyle(ring).borderTopColor
        context.fillRect(0, 0, 1, 1)
        const [red = 0, green = 0, blue = 0] = context.getImageData(0, 0, 1, 1).data
        return { red, green, blue }
      })
    await expect
      .poll(async () => {
        const { red, green, blue } = await ringColour()
        return blue > red + 80 && blue > green + 40
      })
      .toBe(true)
    release()
    await expect(spinner).toBeHidden()
    await expect(page.getByRole('heading', { name: 'Create an Account', level: 2 })).toBeVisible()
  })

  test('following a link shows the spinner, not the previous page, while the next page loads', async ({
    page,
  }) => {
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route(/forgot-password-page-.*\.js$/, async (route) => {
      await held
      await route.continue()
    })
    await page.goto('/login')
    await expect(page.getByRole('heading', { name: WELCOME })).toBeVisible()
    // Followed in the server's HTML, before the app runs, a link is a plain page load: wait for
    // the page's code, the box being usable says it has run.
    await expect(page.getByRole('checkbox', { name: 'I am human' })).toBeEnabled()
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await expect(page).toHaveURL(/\/forgot-password$/)
    // The old form must not stay usable under the new address: typing into it would be lost.
    await expect(page.getByTestId('route-spinner')).toBeVisible()
    await expect(page.getByRole('heading', { name: WELCOME })).toBeHidden()
    await expect(page.getByLabel('Email')).toBeHidden()
    release()
    await expect(
      page.getByRole('heading', { name: 'Forgot your password?', level: 2 }),
    ).toBeVisible()
  })

  test('only the chosen language’s texts load with the page; the other comes when chosen', async ({
    page,
  }) => {
    const catalogues: string[] = []
    page.on('request', (request) => {
      const name = new URL(request.url()).pathname.match(/\/assets\/(en|es)-[\w-]+\.js$/)?.[1]
      if (name) catalogues.push(name)
    })
    await page.goto('/login')
    await expect(page.getByTestId('header-title')).toHaveText('Sign In')
    expect(catalogues).toEqual(['en'])

    await page.getByLabel('Choose language').selectOption({ label: 'Español' })
    await expect(page.getByTestId('header-title')).toHaveText('Iniciar sesión')
    expect(catalogues).toEqual(['en', 'es'])
  })

  test.describe('side menu', () => {
    test('a visitor is offered only the ways into an account', async ({ page }) => {
      await page.goto('/login')
      await page.getByRole('button', { name: 'Open menu' }).click()
      const menu = page.getByTestId('side-menu')
      await expect(menu.getByRole('link')).toHaveText([
        'Sign In',
        'Create an Account',
        'Confirm your code',
        'Forgot your password?',
      ])
      await menu.getByRole('link', { name: 'Create an Account' }).click()
      await expect(page).toHaveURL(/\/signup$/)
      await expect(menu).toBeHidden()
    })

    test('Escape gives focus back to the menu button', async ({ page }) => {
      await page.goto('/login')
      const button = page.getByRole('button', { name: 'Open menu' })
      await button.click()
      const menu = page.getByTestId('side-menu')
      await expect(menu).toBeVisible()
      await page.keyboard.press('Escape')
      await expect(menu).toBeHidden()
      await expect(button).toBeFocused()
      // And the keyboard opens it again from there.
      await page.keyboard.press('Enter')
      await expect(menu).toBeVisible()
    })
  })
})

test.describe('offline', () => {
  test.use({ allowedConsoleErrors: /ERR_INTERNET_DISCONNECTED|status of 404/ })

  test('the shell opens offline after one visit, and says the network is gone', async ({
    page,
    context,
  }) => {
    await page.clock.install()
    await page.goto('/login')
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })

    // Freeze the page's clock so only runFor() moves time for the snackbar's timer.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)
    await context.setOffline(true)
    const snackbar = page.getByTestId('snackbar')
    await expect(snackbar).toHaveText('Sorry, it seems that you are offline')
    await expect(snackbar).toHaveAttribute('data-severity', 'info')
    // The snackbar hides itself after 6000 ms.
    await page.clock.runFor(5_900)
    await expect(snackbar).toBeVisible()
    await page.clock.runFor(200)
    await expect(snackbar).toBeHidden()

    await page.clock.resume()
    await page.reload()
    await expect(page.getByTestId('header-title')).toHaveText('Sign In')
    await page.goto('/no-such-page')
    await expect(page.getByRole('heading', { name: '404 Not Found' })).toBeVisible()
  })

  test('a visitor whose network goes before the service worker starts gets it once the network is back', async ({
    page,
    context,
  }) => {
    // Frozen from the start, so that the worker's deferred start waits for runFor().
    await page.clock.install()
    await page.clock.pauseAt(Date.now() + 1000)
    await page.goto('/login')
    await shownAsTimePasses(page.getByRole('heading', { name: WELCOME }))
    // The heading is the server's HTML: the page's code has run once its box can be ticked.
    await expect(page.getByRole('checkbox', { name: 'I am human' })).toBeEnabled()
    await context.setOffline(true)
    // Past the longest the worker's start waits for the page (client/lib/after-first-page.ts).
    await page.clock.runFor(20_000)
    // Registering now could only fail, and Chromium reports that as a console error.
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations())).toHaveLength(0)

    await context.setOffline(false)
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })
  })

  test('a visitor whose network goes while the service worker’s code is on its way gets it once the network is back', async ({
    page,
    context,
  }) => {
    const chunk = builtChunkPath({ name: 'pwa-register' })
    const { release, asked } = await holdBack(page, chunk)
    await page.clock.install()
    await page.clock.pauseAt(Date.now() + 1000)
    await page.goto('/login')
    await shownAsTimePasses(page.getByRole('heading', { name: WELCOME }))
    // The heading is the server's HTML: the page's code has run once its box can be ticked.
    await expect(page.getByRole('checkbox', { name: 'I am human' })).toBeEnabled()
    await page.clock.runFor(20_000)
    await asked

    await context.setOffline(true)
    const failed = page.waitForEvent(
      'requestfailed',
      (request) => new URL(request.url()).pathname === chunk,
    )
    release()
    await failed
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations())).toHaveLength(0)

    await context.setOffline(false)
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })
  })

  test.describe(() => {
    test.use({ allowedConsoleErrors: /ERR_INTERNET_DISCONNECTED/ })

    test('the offline notice reads well and stands out from the dark header', async ({
      page,
      context,
    }) => {
      await page.goto('/login')
      await expect(page.getByRole('heading', { name: WELCOME })).toBeVisible()
      // The network goes once the service worker is in: while its script is still on the way,
      // Chromium reports the failed fetch as a console error (the case of the tests above).
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      await context.setOffline(true)
      const snackbar = page.getByTestId('snackbar')
      await expect(snackbar).toHaveText('Sorry, it seems that you are offline')

      const box = await paintedColour(snackbar, 'backgroundColor')
      const text = await paintedColour(snackbar.locator('p'), 'color')
      const header = await paintedColour(page.locator('header'), 'backgroundColor')
      expect(contrast(text, box)).toBeGreaterThanOrEqual(4.5)
      // WCAG 1.4.11: a component's edge against what is around it, here the header it lies on.
      expect(contrast(box, header)).toBeGreaterThanOrEqual(3)
      await context.setOffline(false)
    })
  })
})

test.describe('for a member', () => {
  test.use({ memberOptions: { name: 'Ada Lovelace' } })

  test("a member's side menu lists the spec items in order, 279 px wide", async ({
    page,
    member: _,
  }) => {
    await page.goto('/home')
    await page.getByRole('button', { name: 'Open menu' }).click()
    const menu = page.getByTestId('side-menu')
    await expect(menu).toBeVisible()
    await expect(menu.getByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeVisible()
    await expect(menu.getByRole('link')).toHaveText([
      'About',
      'Solfeggio science',
      'Medical Disclaimer',
      'Messages in Water',
      'Privacy Policy & Terms',
      'How-To',
      'Home',
      'User Records',
      'Aura',
      'Chakra',
      'My Account',
      'Support',
      'Log Out',
    ])
    const box = await menu.boundingBox()
    expect(box?.width).toBe(279)
    expect(box?.x).toBe(0)
    await expectAccessible(page, 'the side menu')

    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
  })

  test('/harmonized-complete at its own address: again goes to the latest panel, or home', async ({
    page,
    member: _,
  }) => {
    await page.goto('/harmonized-complete')
    await expect(page.getByTestId('header-title')).toHaveText('Harmonizing Screen')
    await expect(page.getByRole('heading', { name: 'Complete' })).toBeVisible()
    await expect(page.getByText('Your water is ready to drink')).toBeVisible()
    await expectAccessible(page)
    // No session yet: there is no panel to go back to.
    await page.getByRole('button', { name: 'Harmonize Again' }).click()
    await expect(page).toHaveURL(/\/home$/)
  })
})

test('the web app manifest makes the app installable, with icons that load', async ({
  request,
}) => {
  const response = await request.get('/manifest.webmanifest')
  expect(response.ok()).toBe(true)
  const manifest = await response.json()
  expect(manifest).toMatchObject({ name: 'Harmonize', display: 'standalone', start_url: '/' })
  const sizes = manifest.icons.map((icon: { sizes: string }) => icon.sizes)
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']))
  for (const icon of manifest.icons) {
    const image = await request.get(icon.src)
    expect(image.headers()['content-type'], icon.src).toBe('image/png')
  }
})

test.describe('a first visit to /home', () => {
  test.use({ memberOptions: { access: true } })

  test('shows the panels before starting the service worker, then keeps every panel for offline use a few requests at a time', async ({
    page,
    member: _,
  }) => {
    // When the grid's first card appeared, on the page's own clock (resource timings use it too).
    await page.addInitScript(() => {
      const seen = new MutationObserver(() => {
        if (document.querySelector('[data-testid="panel-grid"] a')) {
          Object.assign(window, { gridShownAt: performance.now() })
          seen.disconnect()
        }
      })
      seen.observe(document, { childList: true, subtree: true })
    })
    const inFlight = new Set<string>()
    let mostAtOnce = 0
    const kept = new Set<string>()
    const isPanelCopy = (url: string) => /^\/api\/panels\/\d+$/.test(new URL(url).pathname)
    page.on('request', (request) => {
      if (!isPanelCopy(request.url())) return
      inFlight.add(request.url())
      mostAtOnce = Math.max(mostAtOnce, inFlight.size)
    })
    const settle = (url: string, ok: boolean) => {
      if (!isPanelCopy(url)) return
      inFlight.delete(url)
      if (ok) kept.add(url)
    }
    page.on('requestfinished', (request) => settle(request.url(), true))
    page.on('requestfailed', (request) => settle(request.url(), false))

    await page.goto('/home')
    await expectPanelsOpen(page)
    // Every panel's info, for a session without network, and the mark that it is all there.
    await expect.poll(() => kept.size, { timeout: 20_000 }).toBe(16)
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('harmonize.cache.offline-ready:en')))
      .not.toBeNull()
    expect(mostAtOnce).toBeGreaterThan(0)
    expect(mostAtOnce).toBeLessThanOrEqual(3)

    // The service worker still comes, after the grid.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })
    const { gridShownAt, pwaAskedAt } = await page.evaluate(
      (pwa) => {
        const entry = performance
          .getEntriesByType('resource')
          .find((resource) => new URL(resource.name).pathname === pwa)
        return {
          gridShownAt: (window as unknown as { gridShownAt?: number }).gridShownAt,
          pwaAskedAt: entry?.startTime,
        }
      },
      builtChunkPath({ name: 'pwa-register' }),
    )
    expect(gridShownAt).toBeDefined()
    expect(pwaAskedAt).toBeDefined()
    expect(pwaAskedAt).toBeGreaterThan(gridShownAt ?? Number.POSITIVE_INFINITY)
  })
})
