// What other features may use of auth: better-auth calls with our error wording, and the
// shared limits on code checks and on mail to one address. The code e-mail too: the mail plugin's tests send a real one.
export { codeEmail } from './mail'
export {
  callAuth,
  consumeMailLimits,
  inTransaction,
  ipKey,
  LIMITS,
  type SetCookies,
} from './service'
