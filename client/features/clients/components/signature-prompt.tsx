import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'

type Step = 'ask' | 'write' | 'added' | 'closed'

/**
 * On entering a scan (spec scans §2 Aura scan, Chakra scan): 'Would you like to add a
 * personalized energetic signature using text?' No / Yes; Yes opens a text entry, then an OK
 * dialog 'Energy Signature Added'.
 */
export function SignaturePrompt({ onSignature }: { onSignature: (text: string) => void }) {
  const { t } = useTranslation()
  const [step, setStep] = useState<Step>('ask')
  const [text, setText] = useState('')
  const fieldId = useId()
  const close = () => setStep('closed')
  // No (or closing the question) means no signature for this scan, not the last one's.
  const decline = () => {
    onSignature('')
    close()
  }
  return (
    <>
      <Dialog
        open={step === 'ask'}
        onOpenChange={(open) => !open && decline()}
        title={t('clients.scan.signatureQuestion')}
      >
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={decline}>
            {t('clients.scan.no')}
          </Button>
          <Button onClick={() => setStep('write')}>{t('clients.scan.yes')}</Button>
        </div>
      </Dialog>
      <Dialog
        open={step === 'write'}
        onOpenChange={(open) => !open && close()}
        title={t('clients.scan.signatureLabel')}
      >
        <form
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault()
            onSignature(text.trim())
            setStep(text.trim() ? 'added' : 'closed')
          }}
        >
          <label htmlFor={fieldId} className="text-sm text-slate-700">
            {t('clients.scan.signatureHint')}
          </label>
          <textarea
            id={fieldId}
            rows={3}
            maxLength={500}
            value={text}
            onChange={(event) => setText(event.target.value)}
            className="w-full rounded-lg border border-slate-300 px-3 py-2.5 text-base outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
          />
          <Button type="submit" className="self-end">
            {t('clients.scan.ok')}
          </Button>
        </form>
      </Dialog>
      <Dialog
        open={step === 'added'}
        onOpenChange={(open) => !open && close()}
        title={t('clients.scan.signatureAdded')}
      >
        <Button className="self-end" onClick={close}>
          {t('clients.scan.ok')}
        </Button>
      </Dialog>
    </>
  )
}
