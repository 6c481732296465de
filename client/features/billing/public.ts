// What other features may use of billing: My Account's price plans, saved cards and billing
// information.
export { BillingInfoSummary } from './components/billing-info-summary'
export { PricePlans } from './components/price-plans'
export { SavedCards } from './components/saved-cards'
