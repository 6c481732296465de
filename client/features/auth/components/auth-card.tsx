import ArrowLeft from 'lucide-react/icons/arrow-left'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

/** The frame of every sign-in, sign-up and recovery screen. */
export function AuthCard({
  title,
  intro,
  backTo,
  children,
}: {
  title: string
  intro?: ReactNode
  backTo?: string
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <section className="mx-auto w-full max-w-md px-4 py-6 sm:py-10">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <div className="mb-5 flex items-center gap-2">
          {backTo && (
            <Link
              to={backTo}
              aria-label={t('common.back')}
              className="-ml-2 rounded-full p-2 text-brand-700 hover:bg-brand-100"
            >
              <ArrowLeft aria-hidden className="size-5" />
            </Link>
          )}
          <h2 className="text-2xl font-semibold text-brand-900">{title}</h2>
        </div>
        {intro && <div className="mb-5 text-slate-600">{intro}</div>}
        {children}
      </div>
    </section>
  )
}
