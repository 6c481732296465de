// What other features may use of billing: My Account's plan, price plans, saved cards and
// billing information (and their queries, which the app asks for before the page's code is
// here), the failed-payment banner, and /home's plan banner (a refused payment, a paused plan).
export { billingAccountQuery, pricesQuery } from './api'
export { BillingInfoSummary } from './components/billing-info-summary'
export { PaymentFailedBanner, PlanBanner } from './components/payment-failed-banner'
export { PlanSummary } from './components/plan-summary'
export { PricePlans } from './components/price-plans'
export { BillingSandboxNotice } from './components/sandbox-notice'
export { SavedCards } from './components/saved-cards'
export { planQueryWithCopy } from './plan-api'
export { billingTextsReady } from './texts'
