import FlaskConical from 'lucide-react/icons/flask-conical'
import { useTranslation } from 'react-i18next'
import { useBillingAccount } from '../api'

/** Wherever money is shown in the sandbox (PRODUCT.md principle 3). */
export function SandboxNotice({ sandbox }: { sandbox: boolean | undefined }) {
  const { t } = useTranslation()
  if (!sandbox) return null
  return (
    <p
      data-testid="sandbox-notice"
      className="flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 ring-1 ring-amber-200"
    >
      <FlaskConical aria-hidden className="size-4 shrink-0" />
      {t('billing.sandbox')}
    </p>
  )
}

/** The page's one sandbox notice, for a page that shows several things with money (My Account). */
export function BillingSandboxNotice() {
  const account = useBillingAccount()
  return <SandboxNotice sandbox={account.data?.sandbox} />
}
