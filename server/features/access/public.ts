// What other features (and the operator commands) may use of access.
export {
  accessFactsFor,
  accessOf,
  createCodes,
  listCodes,
  redeemSignupCode,
  revokeCode,
} from './service'
