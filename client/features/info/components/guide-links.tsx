import FileDown from 'lucide-react/icons/file-down'
import { useTranslation } from 'react-i18next'
import { type InfoGuide, infoGuidePath } from '../../../../domain/info'
import { currentLanguage } from '../../../lib/i18n'

const GUIDES: { guide: InfoGuide; label: string; hint: string }[] = [
  {
    guide: 'sign-up',
    label: 'info.howTo.signUpGuide',
    hint: 'info.howTo.signUpGuideHint',
  },
  {
    guide: 'troubleshooting',
    label: 'info.howTo.troubleShooting',
    hint: 'info.howTo.troubleShootingHint',
  },
]

/**
 * The 'Sign Up Guide' and 'Trouble Shooting' documents (spec scans §2 How-To), as PDFs in the
 * language the page is shown in: the link names it, since the person may have just switched.
 */
export function GuideLinks() {
  const { t } = useTranslation()
  const language = currentLanguage()
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {GUIDES.map(({ guide, label, hint }) => (
        <li key={guide}>
          <a
            href={`${infoGuidePath(guide)}?lang=${language}`}
            target="_blank"
            rel="noopener"
            className="flex h-full items-start gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-brand-500"
            data-testid={`guide-${guide}`}
          >
            <FileDown aria-hidden className="mt-0.5 size-6 shrink-0 text-brand-600" />
            <span className="flex flex-col gap-1">
              <span className="font-semibold text-brand-800">
                {t(label)}{' '}
                <span className="text-xs font-medium text-slate-500">
                  ({t('info.common.pdf')}
                  <span className="sr-only">, {t('info.common.opensInNewTab')}</span>)
                </span>
              </span>
              <span className="text-sm text-slate-600">{t(hint)}</span>
            </span>
          </a>
        </li>
      ))}
    </ul>
  )
}
