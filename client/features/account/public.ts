// What other features and the app shell may use of account.

import { lazy } from 'react'

export { saveAccountLanguage } from './api'
export { UserAvatar } from './components/user-avatar'

/**
 * The change-password dialog, loaded the first time it renders: the header imports this module
 * on every page, /login included, which must not carry the dialog's code.
 */
export const ChangePasswordDialog = lazy(() =>
  import('./components/change-password-dialog').then((m) => ({ default: m.ChangePasswordDialog })),
)
