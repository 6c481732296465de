// What other features may use of access.
export { accessQuery, accessQueryKey, useAccess, useInvitationCode, useRedeemCode } from './api'
export { NoAccessNotice } from './components/no-access-notice'
