// What other features and the app shell may use of auth.
export { signOut } from './api'
