import Lock from 'lucide-react/icons/lock'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useMessageText } from '../../../lib/messages'

/**
 * What a member without access sees wherever the paid product starts (the panel grid, a
 * session): the spec's 'Sorry, no payment found yet.' and the way to My Account, where a plan
 * or a code opens it.
 */
export function NoAccessNotice({ className = '' }: { className?: string }) {
  const { t } = useTranslation()
  const text = useMessageText()
  return (
    <div
      role="status"
      className={`flex flex-wrap items-center gap-3 rounded-xl bg-amber-50 px-4 py-3 text-amber-950 ring-1 ring-amber-200 ${className}`}
    >
      <Lock aria-hidden className="size-5" />
      <p className="flex-1 font-medium" data-testid="no-payment">
        {text('access.noPayment')}
      </p>
      <Link
        to="/my-account"
        className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
      >
        {t('panels.goToAccount')}
      </Link>
    </div>
  )
}
