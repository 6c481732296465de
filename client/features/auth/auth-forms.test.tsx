import { cleanup, screen, waitFor } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { messageText } from '../../../domain/messages'
import {
  buildUser,
  createAccessCode,
  grantAccess,
  uniqueEmail,
} from '../../../tests/support/factories'
import { outboxMessages, waitForOutboxCode } from '../../../tests/support/outbox'
import {
  type AppServer,
  passHumanCheckIn,
  signOut,
  startAppServer,
} from '../../lib/testing/app-server'
import { renderApp } from '../../lib/testing/render-app'

// The visitor's forms (sign-in, sign-up, confirmation, new code, forgotten password) against
// the real server: what the person types, what the server answers, what the page shows.

const en = (key: Parameters<typeof messageText>[0]) => messageText(key, 'en')

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
beforeEach(() => signOut())

const title = () => screen.getByTestId('header-title')
const snackbar = () => screen.getByTestId('snackbar')
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement

/** The form filled in and sent, with the human check passed as the widget would. */
async function signInThroughForm(email: string, password: string) {
  const user = userEvent.setup()
  await user.clear(field('Email'))
  await user.type(field('Email'), email)
  await user.clear(field('Password'))
  await user.type(field('Password'), password)
  await passHumanCheckIn(document.body)
  await user.click(screen.getByRole('button', { name: 'Sign In' }))
}

/** The signed-in account's language, as the server keeps it. */
async function accountLanguage() {
  const response = await fetch('/api/session', { headers: { accept: 'application/json' } })
  const body = (await response.json()) as { user: { language: string } | null }
  return body.user?.language
}

/** A wrong code for sure: the right one with its last digit changed. */
const wrongCodeFor = (code: string) => `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`

describe('sign-in', () => {
  it('says under each field what is wrong, and sends nothing', async () => {
    const user = userEvent.setup()
    await renderApp('/login')
    await user.type(await screen.findByLabelText('Email'), 'not-an-address')
    await user.click(screen.getByRole('button', { name: 'Sign In' }))

    expect(await screen.findByText(en('validation.email'))).toBeTruthy()
    expect(field('Email').getAttribute('aria-invalid')).toBe('true')
    expect(field('Password').getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText(en('validation.passwordRequired'))).toBeTruthy()
    expect(screen.queryByTestId('snackbar')).toBeNull()
  })

  it('asks for the human check, then says a wrong password is wrong, in red', async () => {
    const { user: member } = await buildUser(server.app)
    const user = userEvent.setup()
    await renderApp('/login')
    await user.type(await screen.findByLabelText('Email'), member.email)
    await user.type(field('Password'), 'Not-The-Password-1!')
    await user.click(screen.getByRole('button', { name: 'Sign In' }))
    await waitFor(() => expect(snackbar().textContent).toBe(en('validation.humanCheck')))
    expect(snackbar().dataset.severity).toBe('error')

    await passHumanCheckIn(document.body)
    await user.click(screen.getByRole('button', { name: 'Sign In' }))
    await waitFor(() => expect(snackbar().textContent).toBe(en('auth.incorrectCredentials')))
    expect(snackbar().dataset.severity).toBe('error')
    expect(title().textContent).toBe('Sign In')
  })

  it('signs a member in; the red message of the failed try does not come along', async () => {
    const { user: member } = await buildUser(server.app)
    await renderApp('/login')
    await screen.findByLabelText('Email')
    await signInThroughForm(member.email, 'Not-The-Password-1!')
    await waitFor(() => expect(snackbar().textContent).toBe(en('auth.incorrectCredentials')))

    await signInThroughForm(member.email, member.password)
    // Nothing is open to a member without a plan or a code yet: they land on the plans.
    await waitFor(() => expect(title().textContent).toBe('My Account'))
    expect(screen.queryByTestId('snackbar')).toBeNull()
  })

  it('lands a member who has access on the route table’s page, Client Details', async () => {
    const { user: member } = await buildUser(server.app, { access: true })
    await renderApp('/login')
    await screen.findByLabelText('Email')
    await signInThroughForm(member.email, member.password)
    await waitFor(() => expect(title().textContent).toBe('Client Details'))
  })

  it('takes an unconfirmed account to the code page with its address, as information; the right code then leaves no red message behind', async () => {
    const { user: member } = await buildUser(server.app, { confirmed: false })
    const mailed = (await outboxMessages(server.app, member.email)).length
    const user = userEvent.setup()
    await renderApp('/login')
    await screen.findByLabelText('Email')
    await signInThroughForm(member.email, member.password)

    await waitFor(() => expect(title().textContent).toBe('Confirm Registration'))
    expect(field('Email').value).toBe(member.email)
    expect(snackbar().textContent).toBe(en('auth.emailNotVerifiedCodeSent'))
    expect(snackbar().dataset.severity).toBe('info')
    expect(snackbar().getAttribute('role')).toBe('status')

    const code = await waitForOutboxCode(server.app, member.email, { already: mailed })
    await user.type(field('Confirmation code'), wrongCodeFor(code))
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(snackbar().textContent).toBe(en('auth.codeInvalid')))
    expect(snackbar().dataset.severity).toBe('error')

    await user.clear(field('Confirmation code'))
    await user.type(field('Confirmation code'), code)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(title().textContent).toBe('Registration Complete'))
    expect(screen.queryByTestId('snackbar')).toBeNull()
  })

  it('on a device where no language was picked, takes the account’s language', async () => {
    const { user: member } = await buildUser(server.app, { language: 'es' })
    await renderApp('/login')
    await screen.findByLabelText('Email')
    // A new device: English from the browser's default, nothing picked.
    localStorage.removeItem('harmonize.language')
    await signInThroughForm(member.email, member.password)

    await waitFor(() => expect(title().textContent).toBe('Mi cuenta'))
    expect(document.documentElement.lang).toBe('es')
    expect(await accountLanguage()).toBe('es')
  })

  it('saves a language picked on this device to the account, so its e-mails follow it', async () => {
    const { user: member } = await buildUser(server.app, { language: 'es' })
    await renderApp('/login', { language: 'en' })
    await screen.findByLabelText('Email')
    await signInThroughForm(member.email, member.password)

    await waitFor(() => expect(title().textContent).toBe('My Account'))
    await waitFor(async () => expect(await accountLanguage()).toBe('en'))
  })

  it('speaks Spanish, the server’s refusals included', async () => {
    const { user: member } = await buildUser(server.app)
    const user = userEvent.setup()
    await renderApp('/login', { language: 'es' })
    await user.type(await screen.findByLabelText('Correo electrónico'), member.email)
    await user.type(field('Contraseña'), 'Not-The-Password-1!')
    await passHumanCheckIn(document.body)
    await user.click(screen.getByRole('button', { name: 'Iniciar sesión' }))
    await waitFor(() =>
      expect(snackbar().textContent).toBe(messageText('auth.incorrectCredentials', 'es')),
    )
  })
})

describe('sign-up', () => {
  it('puts the first reason in the snackbar and "Incorrect entry." under name and e-mail', async () => {
    const user = userEvent.setup()
    await renderApp('/signup')
    await user.type(await screen.findByLabelText('Full name'), '   ')
    await user.type(field('Email'), 'not-an-address')
    await user.type(field('Password'), 'weak')
    await user.type(field('Confirm password'), 'other')
    await passHumanCheckIn(document.body)
    await user.click(screen.getByRole('button', { name: 'Register Account' }))

    await waitFor(() => expect(snackbar().textContent).toBe(en('validation.fullName')))
    expect(snackbar().dataset.severity).toBe('error')
    expect(screen.getAllByText(en('validation.incorrectEntry'))).toHaveLength(2)
    expect(screen.getByText(en('validation.passwordsDoNotMatch'))).toBeTruthy()
    expect(field('Password').getAttribute('aria-invalid')).toBe('true')
    expect(title().textContent).toBe('Create an Account')
  })

  it('registers, then asks for the mailed code with the address filled in', async () => {
    const email = uniqueEmail('signup')
    const user = userEvent.setup()
    await renderApp('/signup')
    await user.type(await screen.findByLabelText('Full name'), 'Ada Lovelace')
    await user.type(field('Email'), `  ${email.toUpperCase()} `)
    await user.type(field('Password'), 'Sunny-Water-19!')
    await user.type(field('Confirm password'), 'Sunny-Water-19!')
    const register = screen.getByRole('button', { name: 'Register Account' })
    expect((register as HTMLButtonElement).disabled).toBe(true)
    await passHumanCheckIn(document.body)
    await waitFor(() => expect((register as HTMLButtonElement).disabled).toBe(false))
    await user.click(register)

    await waitFor(() => expect(title().textContent).toBe('Confirm Registration'))
    expect(field('Email').value).toBe(email)
    expect(snackbar().dataset.severity).toBe('success')
    expect(await waitForOutboxCode(server.app, email)).toMatch(/^\d{6}$/)
  })

  it('shows the server’s reason for a field the form does not have (an over-long invitation code)', async () => {
    const user = userEvent.setup()
    await renderApp(`/signup/${'X'.repeat(65)}`)
    await user.type(await screen.findByLabelText('Full name'), 'Ada Lovelace')
    await user.type(field('Email'), uniqueEmail('long-code'))
    await user.type(field('Password'), 'Sunny-Water-19!')
    await user.type(field('Confirm password'), 'Sunny-Water-19!')
    await passHumanCheckIn(document.body)
    await user.click(screen.getByRole('button', { name: 'Register Account' }))

    await waitFor(() =>
      expect(snackbar().textContent).toBe('This is too long: at most 64 characters.'),
    )
    expect(title().textContent).toBe('Create an Account')
  })

  it('says when an invitation code cannot be used, and still lets the person register', async () => {
    const { user: holder } = await buildUser(server.app)
    const used = await grantAccess(server.app, holder.id)
    const fresh = await createAccessCode(server.app)

    await renderApp(`/signup/${used}`)
    const notice = await screen.findByText(en('access.codeUsed'))
    expect(notice.closest('[role="status"]')?.textContent).toContain(
      'You can still create an account',
    )
    expect(screen.getByRole('button', { name: 'Register Account' })).toBeTruthy()

    cleanup()
    await renderApp('/signup/HZ-2222-2222')
    expect(await screen.findByText(en('access.codeUnknown'))).toBeTruthy()

    cleanup()
    await renderApp(`/signup/${fresh}`)
    expect(await screen.findByText(`Invitation code: ${fresh}`)).toBeTruthy()
    expect(screen.queryByText(en('access.codeUnknown'))).toBeNull()
  })
})

describe('codes by e-mail', () => {
  it('a new confirmation code leads to the code page with the address', async () => {
    const { user: member } = await buildUser(server.app, { confirmed: false })
    const mailed = (await outboxMessages(server.app, member.email)).length
    const user = userEvent.setup()
    await renderApp('/resend-confirmation-code')
    await user.type(await screen.findByLabelText('Email'), member.email)
    await passHumanCheckIn(document.body)
    await user.click(screen.getByRole('button', { name: 'Send Code' }))

    await waitFor(() => expect(title().textContent).toBe('Confirm Registration'))
    expect(field('Email').value).toBe(member.email)
    expect(snackbar().textContent).toBe(
      'If this address is waiting for confirmation, a new code is on its way.',
    )
    await waitForOutboxCode(server.app, member.email, { already: mailed })
  })

  it('a forgotten password is replaced with the mailed code; a wrong code says why', async () => {
    const { user: member } = await buildUser(server.app)
    const user = userEvent.setup()
    await renderApp('/forgot-password')
    await user.click(await screen.findByRole('button', { name: 'Send Code' }))
    expect(await screen.findByText(en('validation.email'))).toBeTruthy()

    await user.type(field('Email'), member.email)
    await user.click(screen.getByRole('button', { name: 'Send Code' }))
    await waitFor(() => expect(snackbar().textContent).toBe(en('validation.humanCheck')))
    await passHumanCheckIn(document.body)
    await user.click(screen.getByRole('button', { name: 'Send Code' }))

    await waitFor(() => expect(title().textContent).toBe('Reset Password'))
    expect(field('Email').value).toBe(member.email)
    const code = await waitForOutboxCode(server.app, member.email)
    await user.type(field('Confirmation code'), wrongCodeFor(code))
    await user.type(field('New password'), 'Renewed-Pass-77?')
    await passHumanCheckIn(document.body)
    await user.click(screen.getByRole('button', { name: 'Change' }))
    await waitFor(() => expect(snackbar().textContent).toBe(en('auth.codeInvalid')))

    await user.clear(field('Confirmation code'))
    await user.type(field('Confirmation code'), code)
    // The widget was reset after the refused try: a solution counts once.
    await passHumanCheckIn(document.body)
    await user.click(screen.getByRole('button', { name: 'Change' }))
    await waitFor(() => expect(title().textContent).toBe('Sign In'))
    expect(field('Email').value).toBe(member.email)
    expect(snackbar().textContent).toBe(
      'Your password has been changed. Please sign in with the new one.',
    )
    expect(snackbar().dataset.severity).toBe('success')
  })
})
