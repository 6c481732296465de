import type { Cookie } from './browser'
import type { PageVisit } from './page-bytes'

// What "usable" means for each page measured: the page's own markers (data-testid, form
// controls) that the end-to-end tests also rely on, shown and enabled.

/** The sign-in form shows and can be sent; typing an address is what starts the human check. */
export const loginVisit: PageVisit = {
  url: '/login',
  usable: ['form input[type="email"]', 'form button[type="submit"]'],
  interact: async (page) => {
    const email = page.locator('form input[type="email"]').first()
    await email.click()
    await email.pressSequentially('member@example.test')
  },
}

/**
 * The panels are in the page's HTML (ADR 0028): usable means the app has taken the page over,
 * which its header's menu says (disabled in the HTML, enabled once hydrated).
 */
export const homeVisit = (cookies: Cookie[]): PageVisit => ({
  url: '/home',
  usable: ['[data-testid="panel-grid"] a', 'header button[aria-haspopup="dialog"]'],
  cookies,
})

/** Play can be pressed: the session's visuals and sound are ready to start. */
export const harmonizingVisit = (cookies: Cookie[]): PageVisit => ({
  url: '/harmonizing-screen/01',
  usable: ['[data-testid="play"]'],
  cookies,
})
