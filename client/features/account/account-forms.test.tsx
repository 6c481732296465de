import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { IMAGE_MAX_BYTES } from '../../../domain/images'
import { messageText } from '../../../domain/messages'
import { createAccessCode, uniqueEmail } from '../../../tests/support/factories'
import { waitForOutboxCode } from '../../../tests/support/outbox'
import {
  type AppServer,
  signedInMember,
  signOut,
  startAppServer,
} from '../../lib/testing/app-server'
import { renderApp } from '../../lib/testing/render-app'

// My Account's forms (password, e-mail, access code, picture) against the real server.

const en = (key: Parameters<typeof messageText>[0]) => messageText(key, 'en')

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
beforeEach(() => signOut())

const snackbar = () => screen.getByTestId('snackbar')

async function openMyAccount() {
  await renderApp('/my-account')
  await screen.findByTestId('account-email')
}

/** The open dialog, and its field by label. */
const dialog = () => screen.getByRole('dialog')
const dialogField = (label: string) => within(dialog()).getByLabelText(label) as HTMLInputElement

describe('change password', () => {
  it('says inside the dialog that the current password is wrong; a right one changes it', async () => {
    const member = await signedInMember(server)
    const user = userEvent.setup()
    await openMyAccount()
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    // The dialog's code comes when a dialog first opens (client/components/ui/dialog.tsx).
    await screen.findByRole('dialog')
    const submit = within(dialog()).getByRole('button', { name: 'Change password' })
    expect((submit as HTMLButtonElement).disabled).toBe(true)

    await user.type(dialogField('Current password'), 'Not-The-Password-1!')
    await user.type(dialogField('New password'), 'Renewed-Pass-77?')
    await user.type(dialogField('Confirm new password'), 'Renewed-Pass-77!')
    await user.click(submit)
    expect(dialogField('Confirm new password').getAttribute('aria-invalid')).toBe('true')
    expect(within(dialog()).getByText(en('validation.verificationPasswordMismatch'))).toBeTruthy()

    await user.clear(dialogField('Confirm new password'))
    await user.type(dialogField('Confirm new password'), 'Renewed-Pass-77?')
    await user.click(submit)
    const alert = await within(dialog()).findByText(en('auth.currentPasswordIncorrect'))
    expect(alert.getAttribute('role')).toBe('alert')

    await user.clear(dialogField('Current password'))
    await user.type(dialogField('Current password'), member.password)
    await user.click(submit)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(snackbar().textContent).toBe('Your password has been successfully changed')
  })
})

describe('change e-mail', () => {
  it('refuses a blank, a wrong and the same address, then changes it with the mailed code', async () => {
    const member = await signedInMember(server)
    const user = userEvent.setup()
    await openMyAccount()
    await user.click(screen.getByRole('button', { name: 'Edit' }))
    await screen.findByRole('dialog')
    const sendCode = within(dialog()).getByRole('button', { name: 'Send code' })

    await user.click(sendCode)
    await waitFor(() => expect(dialogField('New email').getAttribute('aria-invalid')).toBe('true'))
    expect(within(dialog()).getByText(en('validation.emailRequired'))).toBeTruthy()

    await user.type(dialogField('New email'), 'not-an-address')
    await user.click(sendCode)
    expect(await within(dialog()).findByText(en('validation.email'))).toBeTruthy()

    // The server's refusal goes under the one field, inside the dialog.
    await user.clear(dialogField('New email'))
    await user.type(dialogField('New email'), member.email.toUpperCase())
    await user.click(sendCode)
    expect(await within(dialog()).findByText(en('auth.sameEmail'))).toBeTruthy()

    const newEmail = uniqueEmail('changed')
    await user.clear(dialogField('New email'))
    await user.type(dialogField('New email'), newEmail)
    await user.click(sendCode)
    await within(dialog()).findByText(
      `We sent a 6-digit code to ${newEmail}. Enter it here to finish.`,
    )
    const code = await waitForOutboxCode(server.app, newEmail)
    const wrong = `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`
    await user.type(dialogField('Confirmation code'), wrong)
    await user.click(within(dialog()).getByRole('button', { name: 'Confirm' }))
    expect(await within(dialog()).findByText(en('auth.codeInvalid'))).toBeTruthy()

    await user.clear(dialogField('Confirmation code'))
    await user.type(dialogField('Confirmation code'), code)
    await user.click(within(dialog()).getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(snackbar().textContent).toBe('Your email has been changed successfully.')
    expect(screen.getByTestId('account-email').textContent).toBe(newEmail)
  })
})

describe('access code', () => {
  it('says why a code is refused; once one is redeemed the form gives way to what it gives', async () => {
    await signedInMember(server)
    const user = userEvent.setup()
    await openMyAccount()
    const codeField = await screen.findByLabelText('Access code')
    await user.click(screen.getByRole('button', { name: 'Redeem' }))
    expect(await screen.findByText(en('access.codeRequired'))).toBeTruthy()

    await user.type(codeField, 'HZ-NOPE-NOPE')
    await user.click(screen.getByRole('button', { name: 'Redeem' }))
    expect(await screen.findByText(en('access.codeUnknown'))).toBeTruthy()
    expect(codeField.getAttribute('aria-invalid')).toBe('true')

    await user.clear(codeField)
    await user.type(codeField, await createAccessCode(server.app))
    await user.click(screen.getByRole('button', { name: 'Redeem' }))
    await waitFor(() =>
      expect(snackbar().textContent).toBe('Your access code is active. Enjoy harmonizing!'),
    )
    expect(screen.getByTestId('code-active').textContent).toBe('You have an active access code.')
    expect(screen.queryByLabelText('Access code')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Redeem' })).toBeNull()
  })

  it('is not offered to a member who already has access', async () => {
    await signedInMember(server, { access: true })
    await openMyAccount()
    await screen.findByTestId('code-active')
    expect(screen.queryByLabelText('Access code')).toBeNull()
  })
})

describe('picture', () => {
  const choose = (file: File) =>
    fireEvent.change(screen.getByTestId('avatar-file-input'), { target: { files: [file] } })

  it('refuses a picture over 5 MB before sending it, and a file that is no picture', async () => {
    await signedInMember(server)
    await openMyAccount()
    choose(new File([new Uint8Array(IMAGE_MAX_BYTES + 1)], 'huge.png', { type: 'image/png' }))
    await waitFor(() => expect(snackbar().textContent).toBe(en('image.tooLarge')))
    expect(snackbar().dataset.severity).toBe('error')

    choose(new File(['just some words'], 'notes.png', { type: 'image/png' }))
    // The server looks at the bytes, not at the name or the declared type.
    await waitFor(() => expect(snackbar().textContent).toBe(en('image.unsupportedType')))
    expect(snackbar().dataset.severity).toBe('error')
    expect(screen.queryByTestId('user-avatar-image')).toBeNull()
  })

  it('uploads a picture and shows it', async () => {
    await signedInMember(server)
    await openMyAccount()
    const png = await sharp({
      create: { width: 32, height: 32, channels: 3, background: '#3366cc' },
    })
      .png()
      .toBuffer()
    choose(new File([new Uint8Array(png)], 'me.png', { type: 'image/png' }))
    await waitFor(() => expect(snackbar().textContent).toBe('Your picture has been updated.'))
    expect(screen.getByTestId('user-avatar-image')).toBeTruthy()
  })
})
