import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

const PAGES = [
  { to: '/about', label: 'auth.legal.about' },
  { to: '/terms-of-use', label: 'auth.legal.terms' },
  { to: '/privacy-policy', label: 'auth.legal.privacy' },
  { to: '/disclaimer', label: 'auth.legal.disclaimer' },
] as const

/**
 * What the service is and what one agrees to by signing up, readable before signing up (the
 * pages are open to visitors). `intro` says why they are there, on the sign-up page.
 */
export function LegalLinks({ intro }: { intro?: string }) {
  const { t } = useTranslation()
  return (
    <nav aria-label={t('auth.legal.label')} className="mt-5 text-center text-sm text-slate-600">
      {intro && <p className="mb-1">{intro}</p>}
      <ul className="flex flex-wrap justify-center gap-x-4 gap-y-1">
        {PAGES.map((page) => (
          <li key={page.to}>
            <Link
              to={page.to}
              className="font-medium text-brand-700 underline-offset-2 hover:underline"
            >
              {t(page.label)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
