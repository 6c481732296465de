import Lock from 'lucide-react/icons/lock'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Standing } from '../../../../domain/access'
import { useMessageText } from '../../../lib/messages'

/**
 * What a member without access sees wherever the paid product starts (the panel grid, a
 * session), in their own case: a plan that ended says so; a member who never paid reads the
 * spec's 'Sorry, no payment found yet.' and is shown the plans. (On /home a paused plan or a
 * refused payment has billing's own banner, with its action, instead.)
 */
export function NoAccessNotice({
  className = '',
  standing,
}: {
  className?: string
  standing?: Standing
}) {
  const { t } = useTranslation()
  const text = useMessageText()
  // Each case that is not 'nothing bought yet' has its own words and leads to My Account.
  const own =
    standing === 'ended' || standing === 'paused'
      ? standing
      : standing === 'unpaid' || standing === 'failed'
        ? 'unpaid'
        : null
  return (
    <div
      role="status"
      className={`flex flex-wrap items-center gap-3 rounded-xl bg-amber-50 px-4 py-3 text-amber-950 ring-1 ring-amber-200 ${className}`}
    >
      <Lock aria-hidden className="size-5" />
      <p className="flex-1 font-medium" data-testid="no-payment">
        {own ? t(`panels.noAccess.${own}`) : text('access.noPayment')}
      </p>
      <Link
        to={own ? '/my-account' : '/my-account#plans'}
        className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
      >
        {own ? t('panels.goToAccount') : t('panels.noAccess.seePlans')}
      </Link>
    </div>
  )
}
