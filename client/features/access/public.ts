// What other features may use of access.
export {
  accessQuery,
  accessQueryKey,
  seedAccess,
  useAccess,
  useInvitationCode,
  useRedeemCode,
} from './api'
export { NoAccessNotice } from './components/no-access-notice'
