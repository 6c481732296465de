import CircleHelp from 'lucide-react/icons/circle-question-mark'
import Sparkles from 'lucide-react/icons/sparkles'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { DISTURBANCE_THRESHOLD, READING_MAX, READING_MIN } from '../../../../domain/clients'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { usePanels } from '../../../lib/panel-queries'
import { PanelIcon } from '../../panels/public'
import { RequireAccess } from '../components/require-access'
import { NoScanClient, ScanClientLine, useScanClient } from '../components/scan-client'
import {
  dragPanel,
  EMPTY_TRAYS,
  TRAY_KINDS,
  Tray,
  TrayButtons,
  type TrayKind,
  type Trays,
  toggleInTray,
} from '../components/scan-trays'
import { SignaturePrompt } from '../components/signature-prompt'

/** A number for each panel, drawn for this visit (spec scans §2: generated, 100 to 999). */
const drawNumber = () => READING_MIN + Math.floor(Math.random() * (READING_MAX - READING_MIN + 1))

/** /aura-scan and /chakra-scan: the signature prompt, then on to the screen that scans. */
export function ScanStartPage({ kind }: { kind: 'aura' | 'chakra' }) {
  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-6">
      <RequireAccess>
        <ScanStart kind={kind} />
      </RequireAccess>
    </section>
  )
}

export const AuraScanPage = () => <ScanStartPage kind="aura" />
export const ChakraScanPage = () => <ScanStartPage kind="chakra" />

function ScanStart({ kind }: { kind: 'aura' | 'chakra' }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { context, update } = useScanClient()
  if (!context) return <NoScanClient />
  return (
    <>
      <SignaturePrompt onSignature={(signature) => update({ signature: signature || null })} />
      <ScanClientLine context={context} />
      <p className="flex gap-2 text-sm text-slate-600">
        <Sparkles aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-500" />
        {t('clients.scan.generated')}
      </p>
      {kind === 'aura' && <PanelNumbers />}
      <Button
        className="self-center px-10 text-lg"
        onClick={() => navigate(kind === 'aura' ? '/aura-screen' : '/chakra-screen')}
      >
        {t(kind === 'aura' ? 'clients.scan.auraButton' : 'clients.scan.chakraButton')}
      </Button>
    </>
  )
}

/**
 * The 16 panels, each with its number for this client (650 and above highlighted), and the two
 * trays they are dragged or moved to for a harmonizing session.
 */
function PanelNumbers() {
  const { t } = useTranslation()
  const panels = usePanels()
  const [helpOpen, setHelpOpen] = useState(false)
  const [trays, setTrays] = useState<Trays>(EMPTY_TRAYS)
  const handleToggle = (kind: TrayKind, panelId: string) =>
    setTrays((current) => toggleInTray(current, kind, panelId))
  const handleMinutes = (kind: TrayKind, minutes: number) =>
    setTrays((current) => ({ ...current, minutes: { ...current.minutes, [kind]: minutes } }))
  const numbers = useMemo(
    () => new Map((panels.data ?? []).map((panel) => [panel.id, drawNumber()])),
    [panels.data],
  )
  return (
    <section aria-labelledby="panel-numbers" className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        <h2 id="panel-numbers" className="flex-1 text-lg font-semibold text-brand-900">
          {t('clients.scan.listHeading')}
        </h2>
        <Button variant="ghost" onClick={() => setHelpOpen(true)}>
          <CircleHelp aria-hidden className="size-5" />
          {t('clients.scan.help')}
        </Button>
      </div>
      <ul className="grid gap-2 sm:grid-cols-2" data-testid="scan-list">
        {(panels.data ?? []).map((panel) => {
          const number = numbers.get(panel.id) ?? READING_MIN
          const high = number >= DISTURBANCE_THRESHOLD
          return (
            <li
              key={panel.id}
              data-testid="scan-item"
              data-high={high || undefined}
              draggable
              onDragStart={(event) => dragPanel(event, panel.id)}
              className={`flex cursor-grab items-center gap-2 rounded-xl p-3 ring-1 active:cursor-grabbing ${
                high ? 'bg-amber-50 ring-amber-300' : 'bg-white ring-slate-200'
              }`}
            >
              <PanelIcon name={panel.icon} aria-hidden className="size-5 shrink-0 text-brand-700" />
              <span className="flex-1 text-sm text-slate-900">{panel.name}</span>
              <span
                className={`font-mono text-sm tabular-nums ${high ? 'font-bold text-amber-900' : 'text-slate-700'}`}
              >
                {number}
                {high && <span className="sr-only"> ({t('clients.scan.highlighted')})</span>}
              </span>
              <TrayButtons panel={panel} trays={trays} onToggle={handleToggle} />
            </li>
          )
        })}
      </ul>
      <div className="grid gap-3 md:grid-cols-2">
        {TRAY_KINDS.map((kind) => (
          <Tray
            key={kind}
            kind={kind}
            panels={panels.data ?? []}
            trays={trays}
            onMinutes={handleMinutes}
            onToggle={handleToggle}
          />
        ))}
      </div>
      <Dialog open={helpOpen} onOpenChange={setHelpOpen} title={t('clients.scan.helpTitle')}>
        <div className="flex flex-col gap-3 text-slate-700">
          <p>{t('clients.scan.helpNumbers')}</p>
          <p>{t('clients.scan.helpTrays')}</p>
        </div>
      </Dialog>
    </section>
  )
}
