// What other features may use of billing: the price catalog and the test clock (operator), and
// the payment and plan facts the access rule reads.
export { advanceClock } from './clock'
export {
  closeBillingForDeletion,
  forgetExpiredInvoices,
  keepInvoices,
  paymentWithBank,
} from './closing'
export { invoiceMailPlugin, recipientsOf, resendInvoice } from './invoice-mail'
export { sendInvoicePdf } from './invoice-pdf-reply'
export { billingRecordsOf, invoicePdfsOf } from './member-data'
export { billingDepsOf } from './notices'
export { paymentFactsFor } from './payments'
export { cancelPlanFor, type PlanCancellation, planStatusFor } from './plans'
export { RETURNED_STATUSES, refundedOn } from './refund-rows'
export { type RefundDone, refundInvoice } from './refunds'
export { resyncCustomers } from './resync'
export type { BillingDeps } from './service'
export { archivePrice, createPrice, ensureCatalog, listAllPrices } from './service'
