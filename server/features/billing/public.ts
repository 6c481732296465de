// What other features (the operator's) may use of billing: the price catalog.
export type { BillingDeps } from './service'
export { archivePrice, createPrice, ensureCatalog, listAllPrices } from './service'
