import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { NoAccessNotice, useAccess } from '../../access/public'
import { Loading } from './loading'

/**
 * Client records and scans are part of the paid product (PRODUCT.md): without access the page
 * says so and offers My Account, instead of asking the server for what it will refuse.
 */
export function RequireAccess({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const access = useAccess()
  if (access.isPending) return <Loading text={t('app.loading')} />
  if (!access.data?.hasAccess) return <NoAccessNotice standing={access.data?.standing} />
  return children
}
