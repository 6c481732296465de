import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { readScanContext, type ScanContext, writeScanContext } from '../current-client'

/** The client a scan page is for (see current-client.ts), with a way to change it. */
export function useScanClient() {
  const [context, setContext] = useState<ScanContext | null>(readScanContext)
  const update = (change: Partial<ScanContext>) => {
    if (!context) return
    const next = { ...context, ...change }
    writeScanContext(next)
    setContext(next)
  }
  return { context, update }
}

/** Shown where a scan page has no client yet: where to choose or add one. */
export function NoScanClient() {
  const { t } = useTranslation()
  const link = 'rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700'
  return (
    <div className="flex flex-col items-start gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <p className="text-slate-700" data-testid="no-scan-client">
        {t('clients.scan.noClient')}
      </p>
      <div className="flex flex-wrap gap-2">
        <Link to="/aura-user-record" className={link}>
          {t('clients.scan.openRecords')}
        </Link>
        <Link to="/user-details" className={link}>
          {t('clients.scan.newClient')}
        </Link>
      </div>
    </div>
  )
}

/** Whom the scan is for, and a link to choose someone else. */
export function ScanClientLine({ context }: { context: ScanContext }) {
  const { t } = useTranslation()
  return (
    <div className="flex flex-wrap items-center gap-3">
      {context.photoUrl && (
        <img
          src={context.photoUrl}
          alt=""
          className="size-12 rounded-full object-cover ring-1 ring-slate-200"
        />
      )}
      <p className="flex-1 font-medium text-slate-900" data-testid="scan-client">
        {t('clients.scan.forClient', { name: context.name })}
      </p>
      <Link to="/aura-user-record" className="text-sm font-medium text-brand-700 underline">
        {t('clients.scan.changeClient')}
      </Link>
    </div>
  )
}
