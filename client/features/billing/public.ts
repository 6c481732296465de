// What other features may use of billing: My Account's saved cards and billing information.
export { BillingInfoSummary } from './components/billing-info-summary'
export { SavedCards } from './components/saved-cards'
