// What other features and the app shell may use of account.

export { saveAccountLanguage } from './api'
export { UserAvatar } from './components/user-avatar'
