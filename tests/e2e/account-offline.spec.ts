import type { Locator, Page } from '@playwright/test'
import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { expect, test } from './support/test'

// My Account's own actions with no network (beside billing's, in billing-offline.spec.ts): each
// that needs the server is disabled and says why, in the member's language, instead of failing
// later with a generic error; back online, each works again.

test.use(ownClientAddress)
test.use({ allowedConsoleErrors: /ERR_INTERNET_DISCONNECTED/ })

const TEXTS = {
  en: {
    locale: 'en-US',
    edit: 'Edit',
    changePassword: 'Change password',
    summaryReason: 'You are offline: changing your email or password needs a connection.',
    redeem: 'Redeem',
    codeReason: 'You are offline: redeeming a code needs a connection.',
    download: 'Download my data',
    exportReason: 'You are offline: preparing your data needs a connection.',
    deleteAccount: 'Delete my account',
    deleteReason: 'You are offline: deleting your account needs a connection.',
    saveCard: 'Save card',
    cardReason: 'You are offline: saving a card needs a connection.',
  },
  es: {
    locale: 'es-ES',
    edit: 'Editar',
    changePassword: 'Cambiar contraseña',
    summaryReason:
      'Estás sin conexión: para cambiar tu correo electrónico o tu contraseña necesitas conexión.',
    redeem: 'Canjear',
    codeReason: 'Estás sin conexión: para canjear un código necesitas conexión.',
    download: 'Descargar mis datos',
    exportReason: 'Estás sin conexión: para preparar tus datos necesitas conexión.',
    deleteAccount: 'Eliminar mi cuenta',
    deleteReason: 'Estás sin conexión: para eliminar tu cuenta necesitas conexión.',
    saveCard: 'Guardar tarjeta',
    cardReason: 'Estás sin conexión: para guardar una tarjeta necesitas conexión.',
  },
} as const

/** The app shell comes from the service worker from now on. */
const workerReady = (page: Page) =>
  page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })

/** `control` is disabled, and described by the offline notice that says `reason`. */
async function disabledBecause(page: Page, control: Locator, reason: string) {
  await expect(control).toBeDisabled()
  const notice = page.getByTestId('offline-notice').filter({ hasText: reason })
  await expect(notice).toHaveText(reason)
  await expect(control).toHaveAttribute('aria-describedby', (await notice.getAttribute('id')) ?? '')
}

for (const language of ['en', 'es'] as const) {
  const text = TEXTS[language]

  test.describe(`in ${language}`, () => {
    test.use({ locale: text.locale })

    test("offline, My Account's e-mail, password, access code, data and deletion wait for the network, and saving a card too", async ({
      page,
      context,
    }) => {
      // No plan yet: the access code box is there.
      const member = await createUser(page.request, { language })
      await signInAs(page, member)
      await page.goto('/my-account')
      const controls = {
        edit: page.getByRole('button', { name: text.edit, exact: true }),
        changePassword: page.getByRole('button', { name: text.changePassword }),
        redeem: page.getByRole('button', { name: text.redeem, exact: true }),
        download: page.getByRole('button', { name: text.download }),
        deleteAccount: page.getByRole('button', { name: text.deleteAccount }),
      }
      for (const control of Object.values(controls)) await expect(control).toBeEnabled()
      // The card page offline needs the billing account this device kept.
      await expect
        .poll(() =>
          page.evaluate(() =>
            Object.keys(localStorage).some((key) =>
              key.startsWith('harmonize.cache.billing-account:'),
            ),
          ),
        )
        .toBe(true)
      await workerReady(page)

      // The network goes while the page is open.
      await context.setOffline(true)
      await disabledBecause(page, controls.edit, text.summaryReason)
      await disabledBecause(page, controls.changePassword, text.summaryReason)
      await disabledBecause(page, controls.redeem, text.codeReason)
      await disabledBecause(page, controls.download, text.exportReason)
      await disabledBecause(page, controls.deleteAccount, text.deleteReason)

      // Back online, each works again, and no reason is left on the page.
      await context.setOffline(false)
      for (const control of Object.values(controls)) await expect(control).toBeEnabled()
      await expect(page.getByTestId('offline-notice')).toHaveCount(0)

      // The card page opened with no network (its address typed, as its link is disabled).
      await context.setOffline(true)
      await page.goto('/my-account/add-credit-card')
      const save = page.getByRole('button', { name: text.saveCard })
      await disabledBecause(page, save, text.cardReason)
      await context.setOffline(false)
      await expect(save).toBeEnabled()
      await expect(page.getByTestId('offline-notice')).toHaveCount(0)
    })
  })
}
