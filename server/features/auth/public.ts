// What other features may use of auth: better-auth calls with our error wording, and the
// shared limit on code checks.
export {
  callAuth,
  inTransaction,
  ipKey,
  LIMITS,
  type SetCookies,
} from './service'
