import Download from 'lucide-react/icons/download'
import Trash2 from 'lucide-react/icons/trash-2'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { OfflineNotice } from '../../../components/ui/offline-notice'
import { SectionCard } from '../../../components/ui/section-card'
import { useOfflineReason } from '../../../lib/network-status'
import { DeleteAccountDialog } from './delete-account-dialog'
import { ExportProgress } from './export-progress'

/**
 * My Account's "Your data": the download of everything kept about the member, and the way to
 * delete the account. Its own chunk, with its own texts (see ../public.ts).
 */
export function LeavingSection() {
  const { t } = useTranslation()
  const [deleting, setDeleting] = useState(false)
  const offlineReason = useOfflineReason()
  return (
    <SectionCard title={t('leaving.title')}>
      <div id="my-data" className="flex scroll-mt-20 flex-col gap-4 px-5 py-4">
        <p className="text-sm text-slate-600">{t('leaving.export.intro')}</p>
        <ExportProgress icon={<Download aria-hidden className="size-4" />} />
      </div>
      <div className="flex flex-col gap-3 border-t border-slate-100 px-5 py-4">
        <p className="text-sm text-slate-600">{t('leaving.delete.intro')}</p>
        <div>
          <Button
            variant="danger"
            disabled={offlineReason !== undefined}
            aria-describedby={offlineReason}
            onClick={() => setDeleting(true)}
          >
            <Trash2 aria-hidden className="size-4" />
            {t('leaving.delete.button')}
          </Button>
        </div>
        {offlineReason !== undefined && (
          <OfflineNotice id={offlineReason}>{t('leaving.delete.offline')}</OfflineNotice>
        )}
      </div>
      <DeleteAccountDialog open={deleting} onOpenChange={setDeleting} />
    </SectionCard>
  )
}
