// What other features and the app shell may use of account.

export { saveAccountLanguage } from './api'
export { ChangePasswordDialog } from './components/change-password-dialog'
export { UserAvatar } from './components/user-avatar'
