import { Hourglass } from 'lucide-react'
import { useTranslation } from 'react-i18next'

/** Stands in for a screen whose own issue has not been built yet. */
export function ComingSoonPage() {
  const { t } = useTranslation()
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-3 px-6 py-16 text-center">
      <Hourglass aria-hidden className="size-10 text-brand-500" />
      <p className="text-lg font-medium text-brand-800">{t('app.comingSoon')}</p>
      <p className="text-slate-600">{t('app.comingSoonHint')}</p>
    </section>
  )
}
