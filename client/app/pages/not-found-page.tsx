import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { HOME_PATH } from '../../../domain/routes'

export function NotFoundPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-4 px-6 py-16 text-center">
      <h2 className="text-3xl font-semibold text-brand-800">{t('notFound.title')}</h2>
      <p className="text-slate-600">{t('notFound.text')}</p>
      <button
        type="button"
        onClick={() => navigate(HOME_PATH)}
        className="rounded-lg bg-brand-600 px-6 py-2.5 font-medium text-white shadow hover:bg-brand-700"
      >
        {t('notFound.goHome')}
      </button>
    </section>
  )
}
