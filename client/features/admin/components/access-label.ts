import type { TFunction } from 'i18next'
import type { SubscriptionStatus } from '../../../../domain/access'
import type { AccessSource } from '../../../../domain/members'

/** Where a member's access comes from, in words; "No access" when nothing gives it. */
export const accessLabel = (t: TFunction, source: AccessSource | null) =>
  t(`admin.access.${source ?? 'none'}`)

/** A plan's status in words. */
export const statusLabel = (t: TFunction, status: SubscriptionStatus) => t(`admin.status.${status}`)
