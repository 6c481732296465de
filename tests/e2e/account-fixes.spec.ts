import { AxeBuilder } from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'
import { messageText } from '../../domain/messages'
import { createAccessCode } from './support/access'
import { completeHumanCheck, createUser, ownClientAddress, signInAs } from './support/accounts'
import { waitForCode } from './support/mailbox'
import { expect, test } from './support/test'

// What a new user tripped over (issue 8), each with the check that would have caught it. The
// forms' own rules are covered by the component tests beside them (client/**/*.test.tsx).

test.use(ownClientAddress)

const en = (key: Parameters<typeof messageText>[0]) => messageText(key, 'en')

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

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await completeHumanCheck(page)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
}

test.describe('an account still waiting for its code', () => {
  // The server answers 403 to the sign-in and 400 to the wrong code; Chromium logs both.
  test.use({ allowedConsoleErrors: /the server responded with a status of 40[03]/ })

  test('signing in leads on to the code page with the address, as information; the right code leaves no red message', async ({
    page,
  }) => {
    const user = await createUser(page.request, { confirmed: false })
    await page.goto('/login')
    await signInThroughForm(page, user.email, user.password)

    await expect(page).toHaveURL(/\/signup-confirm$/)
    await expect(page.getByLabel('Email')).toHaveValue(user.email)
    const snackbar = page.getByTestId('snackbar')
    await expect(snackbar).toHaveText(en('auth.emailNotVerifiedCodeSent'))
    await expect(snackbar).toHaveAttribute('data-severity', 'info')
    await expect(snackbar).toHaveRole('status')

    const code = await waitForCode(user.email, 1)
    const wrong = `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`
    await page.getByLabel('Confirmation code').fill(wrong)
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    await expect(snackbar).toHaveText(en('auth.codeInvalid'))
    await expect(snackbar).toHaveAttribute('data-severity', 'error')

    await page.getByLabel('Confirmation code').fill(code)
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    await expect(page).toHaveURL(/\/signed$/)
    await expect(page.getByText('Please use your credentials to enter your account')).toBeVisible()
    await expect(snackbar).toBeHidden()
  })
})

test.describe('My Account', () => {
  test('the redeem form goes away once a code is active', async ({ page }) => {
    const user = await createUser(page.request)
    await signInAs(page, user)
    await page.goto('/my-account')
    await page.getByLabel('Access code').fill(await createAccessCode())
    await page.getByRole('button', { name: 'Redeem' }).click()

    await expect(page.getByTestId('code-active')).toHaveText('You have an active access code.')
    await expect(page.getByLabel('Access code')).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Redeem' })).toHaveCount(0)
    await page.reload()
    await expect(page.getByTestId('code-active')).toBeVisible()
    await expect(page.getByLabel('Access code')).toHaveCount(0)
  })

  test('its summary is a valid definition list (axe-core)', async ({ page }) => {
    const user = await createUser(page.request)
    await signInAs(page, user)
    await page.goto('/my-account')
    await expect(page.getByTestId('account-email')).toHaveText(user.email)
    const { violations } = await new AxeBuilder({ page })
      .withRules(['definition-list', 'dlitem'])
      .analyze()
    expect(violations.map(({ id, nodes }) => `${id}: ${nodes.length}`)).toEqual([])
  })
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

test.describe('offline', () => {
  test.use({ allowedConsoleErrors: /ERR_INTERNET_DISCONNECTED/ })

  test('the offline notice reads well and stands out from the dark header', async ({
    page,
    context,
  }) => {
    await page.goto('/login')
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible()
    // The network goes once the service worker is in: while its script is still on the way,
    // Chromium reports the failed fetch as a console error (the case is shell.spec.ts's).
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
