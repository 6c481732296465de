import Waves from 'lucide-react/icons/waves-horizontal'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Button } from '../../../components/ui/button'

/**
 * The end of a session (spec: harmonize-complete screen): again, or back to the panels.
 * `takeFocus`: the screen replaces the running session, whose Stop had the focus; its heading
 * takes it, so the keyboard goes on from here and a screen reader says the session is complete.
 */
export function SessionComplete({
  onAgain,
  takeFocus = false,
}: {
  onAgain: () => void
  takeFocus?: boolean
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    const active = document.activeElement
    if (takeFocus && (!active || active === document.body)) heading.current?.focus()
  }, [takeFocus])
  return (
    <section
      className="mx-auto flex max-w-md flex-col items-center gap-5 px-6 py-16 text-center"
      data-testid="harmonize-complete"
    >
      <Waves aria-hidden className="size-14 text-brand-600" />
      <h2
        ref={heading}
        tabIndex={-1}
        className="text-3xl font-semibold text-brand-900 focus:outline-none"
      >
        {t('harmonize.complete')}
      </h2>
      <p className="text-lg text-slate-700">{t('harmonize.ready')}</p>
      <Button className="w-full" onClick={onAgain}>
        {t('harmonize.again')}
      </Button>
      <Button variant="secondary" className="w-full" onClick={() => navigate('/home')}>
        {t('harmonize.backToMain')}
      </Button>
    </section>
  )
}
