import ShieldCheck from 'lucide-react/icons/shield-check'
import { useCallback, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'

// The sandbox's stand-in for the bank's own check of a card (3-D Secure), which Stripe.js shows
// in its frame in Stripe mode: the member confirms or fails it, as on Stripe's test page. Closing
// the dialog is failing the check, as abandoning the bank's page is.

export type BankCheckOutcome = 'complete' | 'fail'

/** What the bank checks: a card being saved, or a payment being made with it. */
export type BankCheckSubject = 'card' | 'payment'

/** `ask` opens the check and answers what the member chose; `dialog` goes in the page. */
export function useBankCheck() {
  const { t } = useTranslation()
  const [open, setOpen] = useState<BankCheckSubject | null>(null)
  const answer = useRef<((outcome: BankCheckOutcome) => void) | null>(null)

  const ask = useCallback(
    (subject: BankCheckSubject) =>
      new Promise<BankCheckOutcome>((resolve) => {
        answer.current = resolve
        setOpen(subject)
      }),
    [],
  )
  const settle = (outcome: BankCheckOutcome) => {
    setOpen(null)
    answer.current?.(outcome)
    answer.current = null
  }

  const dialog = (
    <Dialog
      open={open !== null}
      onOpenChange={(next) => {
        if (!next) settle('fail')
      }}
      title={t(open === 'payment' ? 'billing.check.paymentTitle' : 'billing.check.title')}
      description={t(open === 'payment' ? 'billing.check.paymentBody' : 'billing.check.body')}
    >
      <p className="mb-6 flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
        <ShieldCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
        {t('billing.check.sandbox')}
      </p>
      <div className="mt-auto flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={() => settle('fail')}>
          {t('billing.check.fail')}
        </Button>
        <Button onClick={() => settle('complete')}>{t('billing.check.complete')}</Button>
      </div>
    </Dialog>
  )
  return { ask, dialog }
}
