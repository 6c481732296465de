import type { LucideIcon } from 'lucide-react'
import BookOpen from 'lucide-react/icons/book-open'
import ChevronDown from 'lucide-react/icons/chevron-down'
import FileText from 'lucide-react/icons/file-text'
import LifeBuoy from 'lucide-react/icons/life-buoy'
import Scale from 'lucide-react/icons/scale'
import ShieldAlert from 'lucide-react/icons/shield-exclamation-point'
import UserCog from 'lucide-react/icons/user-cog'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { GuideLinks } from '../components/guide-links'
import { InfoArticle, InfoSection } from '../components/info-article'

const QUESTIONS = [
  'start',
  'greyed',
  'offline',
  'install',
  'language',
  'password',
  'plan',
  'scans',
  'records',
] as const

const LINKS: { to: string; label: string; Icon: LucideIcon }[] = [
  { to: '/how-to', label: 'howTo', Icon: BookOpen },
  { to: '/support', label: 'support', Icon: LifeBuoy },
  { to: '/my-account', label: 'myAccount', Icon: UserCog },
  { to: '/disclaimer', label: 'disclaimer', Icon: ShieldAlert },
  { to: '/privacy-policy', label: 'privacy', Icon: FileText },
  { to: '/terms-of-use', label: 'terms', Icon: Scale },
]

/** /help: the common questions, the two guides and the ways on (spec core §2). */
export function HelpPage() {
  const { t } = useTranslation()
  return (
    <InfoArticle heading={t('info.help.heading')} testId="help-page">
      <p className="leading-relaxed text-slate-800">{t('info.help.intro')}</p>
      <InfoSection heading={t('info.help.faqHeading')}>
        <div className="flex flex-col gap-2">
          {QUESTIONS.map((question) => (
            <details
              key={question}
              className="group rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
            >
              <summary className="flex cursor-pointer list-none items-center justify-between gap-3 px-4 py-3 font-medium text-brand-900 [&::-webkit-details-marker]:hidden">
                {t(`info.help.faq.${question}.q`)}
                <ChevronDown
                  aria-hidden
                  className="size-5 shrink-0 text-brand-600 transition-transform group-open:rotate-180"
                />
              </summary>
              <p className="px-4 pb-4 leading-relaxed text-slate-700">
                {t(`info.help.faq.${question}.a`)}
              </p>
            </details>
          ))}
        </div>
      </InfoSection>
      <InfoSection heading={t('info.howTo.guidesHeading')}>
        <GuideLinks />
      </InfoSection>
      <InfoSection heading={t('info.help.linksHeading')}>
        <ul className="grid gap-2 sm:grid-cols-2">
          {LINKS.map(({ to, label, Icon }) => (
            <li key={to}>
              <Link
                to={to}
                className="flex items-center gap-3 rounded-lg bg-white px-4 py-3 font-medium text-brand-800 shadow-sm ring-1 ring-slate-200 hover:ring-brand-500"
              >
                <Icon aria-hidden className="size-5 text-brand-600" />
                {t(`info.help.links.${label}`)}
              </Link>
            </li>
          ))}
        </ul>
      </InfoSection>
    </InfoArticle>
  )
}
