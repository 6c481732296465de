// What other features (and the operator commands) may use of access.
export { currentComplimentary, endComplimentary, grantComplimentary } from './complimentary'
export {
  accessChanged,
  accessFactsFor,
  accessOf,
  createCodes,
  listCodes,
  listCodesPage,
  redeemSignupCode,
  revokeCode,
} from './service'
export {
  accessSourceOf,
  countAccessSources,
  currentPlans,
  mayHaveSource,
  planStatusOf,
} from './sources'
