import type { Page } from '@playwright/test'
import { expectPanelsOpen } from './support/access'
import { completeHumanCheck, createUser, WELCOME } from './support/accounts'
import { builtChunkPath } from './support/build-manifest'
import { holdBack } from './support/hold-back'
import { expect, test } from './support/test'

// The server sends every page as HTML the build rendered (scripts/prerender-pages.ts), in the
// visitor's language, and the app hydrates it (client/app/main.tsx). A hydration that did not
// match the HTML fails any test here through the console guard (React reports it as an error).

test.describe('before any JavaScript runs', () => {
  test.use({ javaScriptEnabled: false })

  test('the sign-in form is there and readable, in English', async ({ page }) => {
    await page.goto('/login')
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await expect(page.getByTestId('header-title')).toHaveText('Sign In')
    await expect(page.getByRole('heading', { name: WELCOME })).toBeVisible()
    await expect(page.getByLabel('Email')).toBeVisible()
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Sign Up Here' })).toHaveAttribute(
      'href',
      '/signup',
    )
  })

  test.describe('in Spanish, as the browser asks', () => {
    test.use({ locale: 'es-ES' })

    test('the sign-in and sign-up pages', async ({ page }) => {
      await page.goto('/login')
      await expect(page.locator('html')).toHaveAttribute('lang', 'es')
      await expect(page.getByTestId('header-title')).toHaveText('Iniciar sesión')
      await expect(page.getByRole('heading', { name: 'Te damos la bienvenida' })).toBeVisible()
      await expect(page.getByLabel('Correo electrónico')).toBeVisible()

      await page.goto('/signup')
      await expect(page.getByRole('heading', { name: 'Crear una cuenta', level: 2 })).toBeVisible()
    })

    test('the panels and a panel’s page', async ({ page }) => {
      await page.goto('/home')
      await expect(
        page.getByTestId('panel-grid').getByRole('link', { name: /Sueño/ }),
      ).toBeVisible()
      await page.goto('/panel-info/03')
      await expect(page.getByRole('heading', { name: 'Sueño', exact: true })).toBeVisible()
      await expect(page.getByText('Tono Solfeggio: 174 Hz')).toBeVisible()
    })
  })

  test('the page is styled from its HTML alone: no stylesheet is asked for', async ({ page }) => {
    const stylesheets: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'stylesheet') stylesheets.push(request.url())
    })
    await page.goto('/login')
    const header = page.locator('header')
    await expect(header).toBeVisible()
    // The header's blue and the page's layout come with the HTML (Tailwind's classes inside it).
    // It stays at the top through the block it shares with the toasts' row (app-layout.tsx).
    const styled = await header.evaluate((element) => ({
      background: getComputedStyle(element).backgroundColor,
      position: element.parentElement ? getComputedStyle(element.parentElement).position : '',
    }))
    expect(styled.background).not.toBe('rgba(0, 0, 0, 0)')
    expect(styled.position).toBe('sticky')
    expect(stylesheets).toEqual([])
  })

  test('a member’s page paints its header and a skeleton', async ({ page }) => {
    await page.goto('/my-account')
    await expect(page.getByTestId('header-title')).toHaveText('My Account')
    await expect(page.getByTestId('page-skeleton')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeDisabled()
  })

  test('the panels and each panel’s page are there, and their links lead on', async ({ page }) => {
    await page.goto('/home')
    await expect(page.getByTestId('header-title')).toHaveText('Home')
    const cards = page.getByTestId('panel-grid').getByRole('link')
    await expect(cards).toHaveCount(16)
    await cards.filter({ hasText: 'Sleep' }).click()
    await expect(page).toHaveURL(/\/panel-info\/03$/)
    await expect(page.getByRole('heading', { name: 'Sleep', exact: true })).toBeVisible()
    // The header names the panel from the HTML, not "..." until the app runs.
    await expect(page.getByTestId('header-title')).toHaveText('Sleep Panel')
    await expect(page.getByText('Solfeggio tone: 174 Hz')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Start harmonizing' })).toHaveAttribute(
      'href',
      '/harmonizing-screen/03',
    )
  })

  test('a panel the build does not know is left to the browser', async ({ page }) => {
    await page.goto('/panel-info/99')
    await expect(page.getByTestId('panel-grid')).toHaveCount(0)
    await expect(page.locator('#root')).toBeEmpty()
  })

  test.describe('an unknown address', () => {
    test.use({ allowedConsoleErrors: /status of 404/ })

    test('says so, with the 404 status', async ({ page }) => {
      const response = await page.goto('/no-such-page')
      expect(response?.status()).toBe(404)
      await expect(page.getByText('The page you are looking for does not exist')).toBeVisible()
    })
  })
})

test('the browser takes over the page it was sent: what was typed stays, and the form works', async ({
  page,
  request,
}) => {
  const user = await createUser(request)
  // Hold the app's code back, as a slow network would, to type before it runs.
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  const loginPage = builtChunkPath({ src: 'features/auth/routes/login-page.tsx' })
  await page.route(
    (url) => /^\/assets\/index-[\w-]+\.js$/.test(url.pathname) || url.pathname === loginPage,
    async (route) => {
      await held
      await route.continue()
    },
  )
  await page.goto('/login', { waitUntil: 'commit' })
  const heading = page.getByRole('heading', { name: WELCOME })
  await expect(heading).toBeVisible()
  const box = page.getByTestId('human-check').getByRole('checkbox', { name: 'I am human' })
  await expect(box).toBeDisabled()
  // A language picked now would change texts the page's code has not taken over yet.
  await expect(page.getByLabel('Choose language')).toBeDisabled()
  await page.getByLabel('Email').fill(user.email)
  await heading.evaluate((element) => element.setAttribute('data-sent-by-server', ''))

  release()
  await expect(box).toBeEnabled()
  // Hydrated, not rendered afresh: the server's elements are the ones on screen.
  await expect(page.locator('h2[data-sent-by-server]')).toHaveText('Welcome to Harmonize')
  await expect(page.getByLabel('Email')).toHaveValue(user.email)
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await completeHumanCheck(page)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(page).toHaveURL(/\/my-account#plans$/)
})

test('a language chosen in the app is the language of the pages the server sends next', async ({
  page,
}) => {
  await page.goto('/login')
  await page.getByLabel('Choose language').selectOption({ label: 'Español' })
  await expect(page.getByTestId('header-title')).toHaveText('Iniciar sesión')

  // The browser still asks for English; the choice wins.
  const html = await (await page.request.get('/signup')).text()
  expect(html).toContain('<html lang="es">')
  expect(html).toContain('Crear una cuenta')

  await page.reload()
  await expect(page.getByRole('heading', { name: 'Te damos la bienvenida' })).toBeVisible()
})

test('a member opening a page gets its shell first, then the page', async ({ page, member }) => {
  // Who is signed in is held back, as a slow network would: the shell is all there is to show.
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route('**/api/session', async (route) => {
    await held
    await route.continue()
  })
  await page.goto('/my-account')
  await expect(page.getByTestId('header-title')).toHaveText('My Account')
  await expect(page.getByTestId('page-skeleton')).toBeVisible()

  release()
  await expect(page.getByTestId('account-email')).toHaveText(member.email)
  await expect(page.getByTestId('page-skeleton')).toHaveCount(0)
})

test.describe('the panels show before anything else has answered, and the app takes them over', () => {
  /** Opens /home with who is signed in and the page's code both held back, then lets them go. */
  async function openHomeHeldBack(page: Page) {
    const session = await holdBack(page, '/api/session')
    const code = await holdPageCode(page, 'features/panels/routes/home-page.tsx')
    await page.goto('/home')
    const sleep = page.getByTestId('panel-grid').getByRole('link', { name: /Sleep/ })
    await expect(sleep).toBeVisible()
    await Promise.all([session.asked, code.asked])
    session.release()
    code.release()
    return sleep
  }

  test.describe('a member with access', () => {
    test.use({ memberOptions: { access: true } })

    test('the cards stay links, and open their panel in the app', async ({ page, member: _ }) => {
      const sleep = await openHomeHeldBack(page)
      // Rendered by the app: its menu is enabled once the page is hydrated.
      await expect(page.getByRole('button', { name: 'Open menu' })).toBeEnabled()
      await expect(page.getByTestId('panel-card-locked')).toHaveCount(0)
      const documents: string[] = []
      page.on('request', (request) => {
        if (request.resourceType() === 'document') documents.push(request.url())
      })
      await sleep.click()
      await expect(page.getByTestId('header-title')).toHaveText('Sleep Panel')
      await expect(page.getByRole('heading', { name: 'Sleep', exact: true })).toBeVisible()
      expect(documents, 'the app opened the panel, not the browser').toEqual([])
    })
  })

  test('a member without access: the cards lock once the app knows', async ({
    page,
    member: _,
  }) => {
    await openHomeHeldBack(page)
    await expect(page.getByTestId('panel-card-locked')).toHaveCount(16)
    await expect(page.getByTestId('panel-grid').getByRole('link')).toHaveCount(0)
    await expect(page.getByTestId('no-payment')).toHaveText('Sorry, no payment found yet.')
  })

  test('a visitor is sent to sign in, and nothing of a member’s is asked for', async ({ page }) => {
    const asked: string[] = []
    page.on('request', (request) => {
      const { pathname } = new URL(request.url())
      if (pathname.startsWith('/api/') && pathname !== '/api/session') asked.push(pathname)
    })
    // The app runs the page before anyone has said who is signed in.
    const session = await holdBack(page, '/api/session')
    await page.goto('/home')
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeEnabled()
    await expect(page.getByTestId('panel-grid')).toHaveAttribute('aria-busy', 'true')
    session.release()
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByRole('heading', { name: WELCOME })).toBeVisible()
    expect(asked.filter((path) => !path.startsWith('/api/panels'))).toEqual([])
  })

  test.describe('a server that cannot say the panels', () => {
    test.use({ memberOptions: { access: true }, allowedConsoleErrors: /status of 404/ })

    test('leaves the panels of the page’s HTML on screen', async ({ page, member: _ }) => {
      let answered = 0
      await page.route('**/api/panels', (route) => {
        answered += 1
        return route.fulfill({ status: 404, json: { message: 'Not Found' } })
      })
      // The refusal comes before React hydrates the page: the first render is still the HTML's.
      const renderer = await holdBack(page, builtChunkPath({ name: 'react-dom' }))
      await page.goto('/home')
      await renderer.asked
      await expect.poll(() => answered).toBeGreaterThan(0)
      renderer.release()
      await expectPanelsOpen(page)
      // Asked again once the page is shown, and refused again.
      await expect.poll(() => answered).toBeGreaterThan(1)
      await expect(page.getByTestId('panel-grid').getByRole('link')).toHaveCount(16)
      await expect(page.getByText('We could not load the panels.', { exact: false })).toHaveCount(0)
    })
  })
})

/** Holds a page's chunk back until `release`. */
const holdPageCode = (page: Page, src: string) => holdBack(page, builtChunkPath({ src }))

function countRequests(page: Page, paths: string[]) {
  const counts = new Map(paths.map((path) => [path, 0]))
  page.on('request', (request) => {
    const { pathname } = new URL(request.url())
    const count = counts.get(pathname)
    if (count !== undefined) counts.set(pathname, count + 1)
  })
  return counts
}

test.describe('a member’s page asks for its code and its data together, each once', () => {
  test.use({ memberOptions: { access: true } })

  test('My Account: its plan, prices, cards and media', async ({ page, member }) => {
    const data = [
      '/api/billing/plan',
      '/api/billing/prices',
      '/api/billing/account',
      '/api/harmonize/media',
    ]
    const counts = countRequests(page, data)
    const code = await holdPageCode(page, 'features/account/routes/my-account-page.tsx')
    // Billing's code (which reads these answers) is held too: the requests do not wait for it.
    const billing = await holdBack(
      page,
      builtChunkPath({ holding: 'client/features/billing/api.ts' }),
    )
    const asked = data.map((path) => page.waitForRequest((request) => request.url().endsWith(path)))
    await page.goto('/my-account')
    // The page's code is on its way (held here), and so is its data.
    await Promise.all([code.asked, billing.asked, ...asked])
    await expect(page.getByTestId('account-email')).toHaveCount(0)

    code.release()
    billing.release()
    await expect(page.getByTestId('account-email')).toHaveText(member.email)
    await expect(page.getByRole('heading', { name: 'Price plans' })).toBeVisible()
    await expect(page.getByText('SUBSCRIPTION', { exact: true })).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(data.map((path) => [path, 1])))
  })

  test('My Account opened later in the visit asks for each answer once', async ({
    page,
    member: _,
  }) => {
    const data = ['/api/billing/plan', '/api/billing/prices', '/api/billing/account']
    await page.goto('/home')
    await expectPanelsOpen(page)
    const counts = countRequests(page, data)
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('link', { name: 'My Account' }).click()
    await expect(page.getByRole('heading', { name: 'Price plans' })).toBeVisible()
    await page.waitForLoadState('networkidle')
    // /home has the plan already (it watches for a refused payment).
    expect(Object.fromEntries(counts)).toEqual({
      '/api/billing/plan': 0,
      '/api/billing/prices': 1,
      '/api/billing/account': 1,
    })
  })

  test('the list of clients: its first page', async ({ page, member: _ }) => {
    const counts = countRequests(page, ['/api/clients'])
    const code = await holdPageCode(page, 'features/clients/routes/user-records-page.tsx')
    const asked = page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/api/clients',
    )
    await page.goto('/aura-user-record')
    await Promise.all([code.asked, asked])
    await expect(page.getByText('No Records found')).toHaveCount(0)

    code.release()
    await expect(page.getByText('No Records found')).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(counts.get('/api/clients')).toBe(1)
  })
})

test.describe('code a page does not need to show waits until it is used', () => {
  test.use({ memberOptions: { access: true } })

  test('My Account shows without the dialogs’ code; a dialog opens once it arrives', async ({
    page,
    member,
  }) => {
    const dialogCode = await holdBack(
      page,
      builtChunkPath({ src: 'components/ui/modal-dialog.tsx' }),
    )
    await page.goto('/my-account')
    await expect(page.getByTestId('account-email')).toHaveText(member.email)
    await expect(page.getByRole('heading', { name: 'Price plans' })).toBeVisible()

    await page.getByRole('button', { name: 'Change password' }).click()
    await dialogCode.asked
    await expect(page.getByRole('dialog')).toHaveCount(0)
    dialogCode.release()
    const dialog = page.getByRole('dialog', { name: 'Change password' })
    await expect(dialog).toBeVisible()
    // Focus moved into it, as when its code was there from the start.
    await expect(dialog.locator(':focus')).toHaveCount(1)
  })

  test('the client form shows before the code that reads phone numbers, and checks with it', async ({
    page,
    member: _,
  }) => {
    const validation = await holdBack(
      page,
      builtChunkPath({ src: 'features/clients/form-validation.ts' }),
    )
    await page.goto('/user-details')
    await expect(page.getByRole('heading', { name: 'New client' })).toBeVisible()
    await page.getByRole('button', { name: 'Start' }).click()
    await validation.asked
    await expect(page.getByText('First Name is required', { exact: true })).toHaveCount(0)
    validation.release()
    await expect(page.getByText('First Name is required', { exact: true })).toBeVisible()
  })

  test('the list of clients loads no code that reads phone numbers', async ({
    page,
    member: _,
  }) => {
    // libphonenumber's metadata names each country's calling codes under this key.
    const phoneCode: string[] = []
    page.on('response', async (response) => {
      if (!response.url().endsWith('.js')) return
      if ((await response.text()).includes('countryCallingCodes')) phoneCode.push(response.url())
    })
    await page.goto('/aura-user-record')
    await expect(page.getByText('No Records found')).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(phoneCode).toEqual([])
  })

  test.describe('offline before the dialogs’ code was kept', () => {
    test.use({ allowedConsoleErrors: /ERR_INTERNET_DISCONNECTED/ })
    const offlineMessage = 'We could not reach Harmonize. Check your connection and try again.'
    /** The built chunk of `src` never arrives, as when the network went before it was kept. */
    const cutOff = (page: Page, src: string) => {
      const chunk = builtChunkPath({ src })
      return page.route(
        (url) => url.pathname === chunk,
        (route) => route.abort('internetdisconnected'),
      )
    }

    test('a dialog whose code cannot arrive says so and leaves the page as it was', async ({
      page,
      member,
    }) => {
      await cutOff(page, 'components/ui/modal-dialog.tsx')
      await page.goto('/my-account')
      await expect(page.getByTestId('account-email')).toHaveText(member.email)
      await page.getByRole('button', { name: 'Change password' }).click()
      await expect(page.getByTestId('snackbar')).toHaveText(offlineMessage)
      await expect(page.getByRole('dialog')).toHaveCount(0)
      await expect(page.getByTestId('account-email')).toHaveText(member.email)
    })

    test('the client form says so when the code that checks it cannot arrive', async ({
      page,
      member: _,
    }) => {
      await cutOff(page, 'features/clients/form-validation.ts')
      await page.goto('/user-details')
      await page.getByLabel('First Name').fill('Lucía')
      await page.getByRole('button', { name: 'Start' }).click()
      await expect(page.getByTestId('snackbar')).toHaveText(offlineMessage)
      await expect(page.getByLabel('First Name')).toHaveValue('Lucía')
      await expect(page.getByRole('button', { name: 'Start' })).toBeEnabled()
    })
  })
})

test('a member without access is not asked for the list of clients the server would refuse', async ({
  page,
  member: _,
}) => {
  const counts = countRequests(page, ['/api/clients'])
  await page.goto('/aura-user-record')
  await expect(page.getByText('Sorry, no payment found yet.')).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(counts.get('/api/clients')).toBe(0)
})

test('pages opened after the first ask for no stylesheet either: the app has one, in the HTML', async ({
  page,
}) => {
  const stylesheets: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') stylesheets.push(request.url())
  })
  await page.goto('/login')
  await expect(
    page.getByTestId('human-check').getByRole('checkbox', { name: 'I am human' }),
  ).toBeEnabled()
  await page.getByRole('link', { name: 'Sign Up Here' }).click()
  await expect(page.getByRole('heading', { name: 'Create an account', level: 2 })).toBeVisible()
  await page.goBack()
  await page.getByRole('link', { name: 'Forgot your password?' }).click()
  await expect(page).toHaveURL(/\/forgot-password$/)
  await expect(page.getByTestId('header-title')).not.toHaveText('Sign In')
  await page.waitForLoadState('networkidle')
  expect(stylesheets).toEqual([])
})

test('a language chosen on this device before the server knew it shows at once, rendered afresh', async ({
  page,
}) => {
  // Chosen before the cookie existed (an earlier version): the server sends English.
  await page.addInitScript(() => localStorage.setItem('harmonize.language', 'es'))
  const html = await (await page.request.get('/login')).text()
  expect(html).toContain('<html lang="en">')

  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'Te damos la bienvenida' })).toBeVisible()
  await expect(page.getByTestId('header-title')).toHaveText('Iniciar sesión')
  // From now on the server knows.
  const next = await (await page.request.get('/signup')).text()
  expect(next).toContain('<html lang="es">')
})

test.describe('paths the server and the browser read alike', () => {
  test.use({ allowedConsoleErrors: /status of 404/ })

  test('another case is not the page, an encoded one is', async ({ page }) => {
    const upper = await page.goto('/Login')
    expect(upper?.status()).toBe(404)
    await expect(page.getByTestId('header-title')).toHaveText('404 Not Found')

    const encoded = await page.goto('/log%69n')
    expect(encoded?.status()).toBe(200)
    await expect(page.getByRole('heading', { name: WELCOME })).toBeVisible()
  })
})
