// What other features may use of auth: better-auth calls with our error wording, and the
// shared limit on code checks. The code e-mail too: the mail plugin's tests send a real one.
export { codeEmail } from './mail'
export {
  callAuth,
  inTransaction,
  ipKey,
  LIMITS,
  type SetCookies,
} from './service'
