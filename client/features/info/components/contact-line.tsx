import { useTranslation } from 'react-i18next'
import { useContact } from '../api'

// Splits the sentence around where the address goes, so the address can be a link without
// markup in the catalogues.
const SLOT = '\u0000'

/** How to reach us, with the support address once the server has given it. */
export function ContactLine() {
  const { t } = useTranslation()
  const contact = useContact()
  const email = contact.data?.supportEmail
  if (!email) return <p className="text-slate-800">{t('info.common.contactOffline')}</p>
  const [before = '', after = ''] = t('info.common.contact', { email: SLOT }).split(SLOT)
  return (
    <p className="text-slate-800" data-testid="info-contact">
      {before}
      <a href={`mailto:${email}`} className="font-medium text-brand-700 underline">
        {email}
      </a>
      {after}
    </p>
  )
}
