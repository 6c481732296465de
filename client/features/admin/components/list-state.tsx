import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'

/**
 * A console list as its query stands: loading, failed (with the reason and Try again), empty
 * (with what that means), or the list itself.
 */
export function ListState<T>({
  query,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>
  isEmpty?: (data: T) => boolean
  /** What an empty list means, in words. */
  empty?: ReactNode
  children: (data: T) => ReactNode
}) {
  const { t } = useTranslation()
  if (query.isPending) return <p className="text-slate-600">{t('admin.loading')}</p>
  if (query.isError) {
    return (
      <div className="flex flex-col items-start gap-2">
        <p role="alert" className="text-red-700">
          {query.error.message}
        </p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          {t('admin.retry')}
        </Button>
      </div>
    )
  }
  if (isEmpty?.(query.data)) return <>{empty}</>
  return <>{children(query.data)}</>
}
