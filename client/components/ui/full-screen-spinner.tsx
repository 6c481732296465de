import { useTranslation } from 'react-i18next'

/** Shown while a route's code loads: the whole screen, a blue ring. */
export function FullScreenSpinner() {
  const { t } = useTranslation()
  return (
    <div
      role="progressbar"
      aria-busy="true"
      aria-label={t('app.loading')}
      data-testid="route-spinner"
      className="fixed inset-0 z-40 flex items-center justify-center bg-brand-50"
    >
      <div className="size-14 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />
    </div>
  )
}
