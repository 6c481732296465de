import Waves from 'lucide-react/icons/waves-horizontal'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Button } from '../../../components/ui/button'

/** The end of a session (spec: harmonize-complete screen): again, or back to the panels. */
export function SessionComplete({ onAgain }: { onAgain: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <section
      className="mx-auto flex max-w-md flex-col items-center gap-5 px-6 py-16 text-center"
      data-testid="harmonize-complete"
    >
      <Waves aria-hidden className="size-14 text-brand-600" />
      <h2 className="text-3xl font-semibold text-brand-900">{t('harmonize.complete')}</h2>
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
