import * as Popover from '@radix-ui/react-popover'
import Headphones from 'lucide-react/icons/headphones'
import Volume2 from 'lucide-react/icons/volume-2'
import { type RefObject, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import type { HarmonizeLayer } from '../audio/engine'
import type { HarmonizePlayer } from '../audio/player'

const LAYERS: readonly HarmonizeLayer[] = ['master', 'backing', 'solfeggio', 'schumann']
const INITIAL_VOLUMES: Record<HarmonizeLayer, number> = {
  master: 1,
  backing: 0.8,
  solfeggio: 0.8,
  schumann: 0.8,
}

interface SoundSettingsProps {
  /**
   * What the settings sit above: the whole row of session buttons, so on a phone, where the
   * buttons wrap onto two rows, they never cover Stop.
   */
  anchor: RefObject<HTMLElement | null>
  player: HarmonizePlayer | null
  calm: boolean
  onCalmChange: (calm: boolean) => void
}

/**
 * The Sound button and its settings: a volume per layer, the binaural Schumann beat and calm
 * motion. A Radix popover, so Escape closes it and gives focus back to the button, and a click
 * elsewhere closes it without taking that click away.
 */
export function SoundSettings({ anchor, player, calm, onCalmChange }: SoundSettingsProps) {
  const { t } = useTranslation()
  // Kept here, outside the popover's content, so the settings read the same when reopened.
  const [volumes, setVolumes] = useState<Record<HarmonizeLayer, number>>(INITIAL_VOLUMES)
  const [binaural, setBinaural] = useState(false)
  return (
    <Popover.Root>
      <Popover.Anchor virtualRef={anchor as RefObject<HTMLElement>} />
      <Popover.Trigger asChild>
        <Button variant="ghost" className="text-white hover:bg-white/15">
          <Volume2 aria-hidden className="size-4" />
          {t('harmonize.sound')}
        </Button>
      </Popover.Trigger>
      {/* Not in a portal: the settings must stay inside the stage when it is full screen, and
          right after their button in the Tab order. */}
      <Popover.Content
        side="top"
        align="end"
        sideOffset={4}
        collisionPadding={12}
        // Focus stays on the button, as with a disclosure; Tab goes on into the settings.
        onOpenAutoFocus={(event) => event.preventDefault()}
        // Radix makes it a dialog, and a dialog needs a name.
        aria-label={t('harmonize.sound')}
        className="z-10 w-72 max-w-[calc(100vw-1.5rem)] rounded-xl bg-white/95 p-4 text-sm text-slate-800 shadow-xl"
      >
        {LAYERS.map((layer) => (
          <label key={layer} className="mb-2 flex items-center gap-2">
            <span className="w-24">{t(`harmonize.layers.${layer}`)}</span>
            <input
              type="range"
              min={0}
              max={1}
              step={0.05}
              value={volumes[layer]}
              onChange={(event) => {
                const value = Number(event.target.value)
                setVolumes((current) => ({ ...current, [layer]: value }))
                player?.setVolume(layer, value)
              }}
              className="flex-1 accent-brand-600"
            />
          </label>
        ))}
        <label className="mt-3 flex items-center gap-2">
          <input
            type="checkbox"
            checked={binaural}
            onChange={(event) => {
              setBinaural(event.target.checked)
              player?.setBinaural(event.target.checked)
            }}
            className="size-4 accent-brand-600"
          />
          <Headphones aria-hidden className="size-4" />
          {t('harmonize.binaural')}
        </label>
        {binaural && <p className="mt-1 text-xs text-slate-600">{t('harmonize.headphonesHint')}</p>}
        <label className="mt-3 flex items-center gap-2">
          <input
            type="checkbox"
            checked={calm}
            onChange={(event) => onCalmChange(event.target.checked)}
            className="size-4 accent-brand-600"
          />
          {t('harmonize.reducedMotion')}
        </label>
      </Popover.Content>
    </Popover.Root>
  )
}
