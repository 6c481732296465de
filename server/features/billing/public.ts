// What other features may use of billing: the price catalog (operator) and the payment facts
// the access rule reads.
export { paymentFactsFor } from './payments'
export type { BillingDeps } from './service'
export { archivePrice, createPrice, ensureCatalog, listAllPrices } from './service'
