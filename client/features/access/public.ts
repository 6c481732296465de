// What other features may use of access.
export { accessQueryKey, useAccess, useInvitationCode, useRedeemCode } from './api'
export { NoAccessNotice } from './components/no-access-notice'
