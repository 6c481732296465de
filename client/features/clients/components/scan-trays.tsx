import type { LucideIcon } from 'lucide-react'
import Layers from 'lucide-react/icons/layers'
import Play from 'lucide-react/icons/play'
import Scale from 'lucide-react/icons/scale'
import X from 'lucide-react/icons/x'
import { type DragEvent, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { RX_MAX_PANELS, RX_MINUTES, rxPath } from '../../../../domain/harmonize'
import type { PanelSummary } from '../../../../domain/panels'
import { Button } from '../../../components/ui/button'
import { SelectField } from '../../../components/ui/select-field'

/** 'balance' holds one panel at a time, 'multi' several (spec scans §2, aura scan help). */
export type TrayKind = 'balance' | 'multi'

export const TRAY_KINDS: readonly TrayKind[] = ['balance', 'multi']

/** Each tray's sign, on the tray and on the panel buttons that fill it. */
const TRAY_ICONS: Record<TrayKind, LucideIcon> = { balance: Scale, multi: Layers }

// A drag carries the panel's id under our own type, so text dropped from elsewhere is ignored.
const DRAG_TYPE = 'application/x-harmonize-panel'

/** What the two trays hold and how long each one's session runs. */
export interface Trays {
  panels: Record<TrayKind, string[]>
  minutes: Record<TrayKind, number>
}

export const EMPTY_TRAYS: Trays = {
  panels: { balance: [], multi: [] },
  minutes: { balance: RX_MINUTES[0], multi: RX_MINUTES[0] },
}

/** `trays` with `panelId` put in (Balance Rx: instead of what it held) or taken out of `kind`. */
export function toggleInTray(trays: Trays, kind: TrayKind, panelId: string): Trays {
  const held = trays.panels[kind]
  const next = held.includes(panelId)
    ? held.filter((id) => id !== panelId)
    : kind === 'balance'
      ? [panelId]
      : [...held, panelId].slice(0, RX_MAX_PANELS)
  return { ...trays, panels: { ...trays.panels, [kind]: next } }
}

/** Starts dragging a panel of the scan list towards a tray. */
export function dragPanel(event: DragEvent, panelId: string) {
  event.dataTransfer.setData(DRAG_TYPE, panelId)
  event.dataTransfer.effectAllowed = 'copy'
}

/** A panel's two buttons, the keyboard and touch way into the trays; pressed when it is in one. */
export function TrayButtons({
  panel,
  trays,
  onToggle,
}: {
  panel: PanelSummary
  trays: Trays
  onToggle: (kind: TrayKind, panelId: string) => void
}) {
  const { t } = useTranslation()
  return (
    <span className="flex shrink-0 gap-1">
      {TRAY_KINDS.map((kind) => {
        const Icon = TRAY_ICONS[kind]
        const inTray = trays.panels[kind].includes(panel.id)
        const tray = t(`clients.rx.${kind}`)
        return (
          <button
            key={kind}
            type="button"
            aria-pressed={inTray}
            aria-label={t('clients.rx.inTray', { name: panel.name, tray })}
            title={tray}
            onClick={() => onToggle(kind, panel.id)}
            className={`grid size-9 place-items-center rounded-lg ring-1 transition-colors ${
              inTray
                ? 'bg-brand-600 text-white ring-brand-600 hover:bg-brand-700'
                : 'bg-white text-brand-700 ring-brand-200 hover:bg-brand-50'
            }`}
          >
            <Icon aria-hidden className="size-4" />
          </button>
        )
      })}
    </span>
  )
}

/**
 * One tray: the panels dropped or moved into it, its time and START, which runs a harmonizing
 * session of those panels for that time (the first one's visuals, every panel's tone).
 */
export function Tray({
  kind,
  panels,
  trays,
  onMinutes,
  onToggle,
}: {
  kind: TrayKind
  panels: readonly PanelSummary[]
  trays: Trays
  onMinutes: (kind: TrayKind, minutes: number) => void
  onToggle: (kind: TrayKind, panelId: string) => void
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [over, setOver] = useState(false)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const TrayIcon = TRAY_ICONS[kind]
  const held = trays.panels[kind].flatMap((id) => panels.find((panel) => panel.id === id) ?? [])
  const name = t(`clients.rx.${kind}`)
  const headingId = `tray-${kind}`
  const accepts = (event: DragEvent) => event.dataTransfer.types.includes(DRAG_TYPE)
  const handleDragOver = (event: DragEvent) => {
    if (!accepts(event)) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'copy'
    setOver(true)
  }
  const handleDrop = (event: DragEvent) => {
    setOver(false)
    const panelId = event.dataTransfer.getData(DRAG_TYPE)
    if (!panelId) return
    event.preventDefault()
    // Dropping a panel the tray already holds keeps it there.
    if (!trays.panels[kind].includes(panelId)) onToggle(kind, panelId)
  }
  return (
    <section
      aria-labelledby={headingId}
      data-testid={`tray-${kind}`}
      onDragOver={handleDragOver}
      onDragLeave={(event) => {
        // Moving over the tray's own children is not leaving it.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false)
      }}
      onDrop={handleDrop}
      className={`flex flex-col gap-3 rounded-2xl border-2 border-dashed p-4 transition-colors ${
        over ? 'border-brand-500 bg-brand-50' : 'border-slate-300 bg-white'
      }`}
    >
      <div className="flex items-center gap-2">
        <TrayIcon aria-hidden className="size-5 text-brand-700" />
        <h3
          id={headingId}
          ref={headingRef}
          tabIndex={-1}
          className="font-semibold text-brand-900 outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          {name}
        </h3>
        <span className="text-sm text-slate-600">{t(`clients.rx.${kind}Hint`)}</span>
      </div>
      {held.length ? (
        <ul className="flex flex-wrap gap-2">
          {held.map((panel) => (
            <li
              key={panel.id}
              data-testid="tray-item"
              className="flex items-center gap-1 rounded-full bg-brand-100 py-1 pr-1 pl-3 text-sm text-brand-900"
            >
              {panel.name}
              <button
                type="button"
                aria-label={t('clients.rx.remove', { name: panel.name, tray: name })}
                onClick={() => {
                  onToggle(kind, panel.id)
                  // The button goes with its panel: keep the keyboard in this tray.
                  headingRef.current?.focus()
                }}
                className="grid size-7 place-items-center rounded-full hover:bg-brand-200"
              >
                <X aria-hidden className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">{t('clients.rx.empty')}</p>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <SelectField
          className="w-40"
          label={t('clients.rx.time')}
          value={String(trays.minutes[kind])}
          options={RX_MINUTES.map((minutes) => ({
            value: String(minutes),
            label: t('clients.rx.minutes', { count: minutes }),
          }))}
          // Which tray's time this is, for a screen reader: both selects are labelled Time.
          aria-describedby={headingId}
          onChange={(event) => onMinutes(kind, Number(event.target.value))}
        />
        <Button
          className="flex-1"
          disabled={!held.length}
          aria-describedby={headingId}
          onClick={() =>
            navigate(
              rxPath({ panelIds: held.map((panel) => panel.id), minutes: trays.minutes[kind] }),
            )
          }
        >
          <Play aria-hidden className="size-4" />
          {t('clients.rx.start')}
        </Button>
      </div>
    </section>
  )
}
