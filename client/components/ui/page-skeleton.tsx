import { useTranslation } from 'react-i18next'

/**
 * A member's page before the app knows who is signed in: grey blocks where a page's heading,
 * text and button go, under the real header. The build prerenders it as every member page's
 * shell, so it is what paints before any JavaScript has run.
 */
export function PageSkeleton() {
  const { t } = useTranslation()
  return (
    <div
      role="progressbar"
      aria-busy="true"
      aria-label={t('app.loading')}
      data-testid="page-skeleton"
      className="mx-auto w-full max-w-2xl animate-pulse space-y-4 px-4 py-6"
    >
      <div className="h-7 w-1/2 rounded bg-brand-100" />
      <div className="space-y-2 rounded-xl bg-white p-4 shadow-sm">
        <div className="h-4 w-full rounded bg-brand-50" />
        <div className="h-4 w-5/6 rounded bg-brand-50" />
        <div className="h-4 w-2/3 rounded bg-brand-50" />
      </div>
      <div className="h-11 w-40 rounded-full bg-brand-100" />
    </div>
  )
}
