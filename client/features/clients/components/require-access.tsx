import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { NoAccessNotice, useAccess } from '../../access/public'

/**
 * Client records and scans are part of the paid product (PRODUCT.md): without access the page
 * says so and offers My Account, instead of asking the server for what it will refuse.
 */
export function RequireAccess({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const access = useAccess()
  if (access.isPending) {
    return (
      <div role="status" className="flex items-center gap-3 py-6 text-slate-600">
        <span className="size-6 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />
        {t('app.loading')}
      </div>
    )
  }
  if (!access.data?.hasAccess) return <NoAccessNotice />
  return children
}
