import type { LucideIcon } from 'lucide-react'
import CircleHelp from 'lucide-react/icons/circle-question-mark'
import Crown from 'lucide-react/icons/crown'
import Droplet from 'lucide-react/icons/droplet'
import Eye from 'lucide-react/icons/eye'
import Heart from 'lucide-react/icons/heart'
import MessageCircle from 'lucide-react/icons/message-circle'
import Mountain from 'lucide-react/icons/mountain'
import Sparkles from 'lucide-react/icons/sparkles'
import Sun from 'lucide-react/icons/sun'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { CHAKRAS, type ClientScan, topThree } from '../../../../domain/clients'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { currentLanguage } from '../../../lib/i18n'
import { useScan } from '../api'
import { AURA_PHOTO_OVAL, drawAura } from '../aura/aura-art'
import { SCAN_MS } from '../components/photo-dialog'
import { RequireAccess } from '../components/require-access'
import { NoScanClient, ScanClientLine, useScanClient } from '../components/scan-client'
import type { ScanContext } from '../current-client'

// Crown to root: the colour the tradition gives each, and an icon for what it stands for.
const CHAKRA_LOOKS: { colour: string; Icon: LucideIcon }[] = [
  { colour: '#7c3aed', Icon: Crown },
  { colour: '#4338ca', Icon: Eye },
  { colour: '#0369a1', Icon: MessageCircle },
  { colour: '#15803d', Icon: Heart },
  { colour: '#a16207', Icon: Sun },
  { colour: '#c2410c', Icon: Droplet },
  { colour: '#b91c1c', Icon: Mountain },
]

export const AuraScreenPage = () => <ScanScreen kind="aura" />
export const ChakraScreenPage = () => <ScanScreen kind="chakra" />

/**
 * /aura-screen and /chakra-screen (spec scans §2): 'Scan' runs 6 seconds ('EnergyScan in
 * progress'), then shows the result the server drew and kept; 'Done' goes to /home; '?' opens
 * the scan guide.
 */
function ScanScreen({ kind }: { kind: 'aura' | 'chakra' }) {
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col gap-4 px-4 py-6">
      <RequireAccess>
        <ScanScreenContent kind={kind} />
      </RequireAccess>
    </section>
  )
}

function ScanScreenContent({ kind }: { kind: 'aura' | 'chakra' }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { context } = useScanClient()
  const scan = useScan(kind)
  const [scanning, setScanning] = useState(false)
  const [result, setResult] = useState<ClientScan | null>(null)
  const [failed, setFailed] = useState(false)

  // The result shows when both the 6 seconds and the server's answer are there.
  useEffect(() => {
    if (!scanning) return
    const timer = setTimeout(() => setScanning(false), SCAN_MS)
    return () => clearTimeout(timer)
  }, [scanning])

  if (!context) return <NoScanClient />
  const start = () => {
    setResult(null)
    setFailed(false)
    setScanning(true)
    scan.mutate(
      { clientId: context.clientId, signature: context.signature },
      { onSuccess: setResult, onError: () => setFailed(true) },
    )
  }
  const shown = scanning ? null : result
  return (
    <>
      <div className="flex items-center gap-2">
        <div className="flex-1">
          <ScanClientLine context={context} />
        </div>
        <a
          href={`/api/guides/${kind}?lang=${currentLanguage()}`}
          target="_blank"
          rel="noopener"
          aria-label={t('clients.scan.guide')}
          className="rounded-full p-2 text-brand-700 hover:bg-brand-50"
          data-testid="scan-guide"
        >
          <CircleHelp aria-hidden className="size-7" />
        </a>
      </div>
      <p className="flex gap-2 text-sm text-slate-600">
        <Sparkles aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-500" />
        {t('clients.scan.generated')}
      </p>
      {kind === 'aura' ? (
        <AuraPicture context={context} picture={shown?.auraPicture ?? null} />
      ) : (
        <ChakraList readings={shown?.chakras ?? null} />
      )}
      {failed && !scanning && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-red-800 ring-1 ring-red-200">
          {t('clients.scan.failed')}
        </p>
      )}
      <div className="flex justify-center gap-3">
        {shown ? (
          <Button className="px-10" onClick={() => navigate('/home')}>
            {t('clients.scan.done')}
          </Button>
        ) : (
          <Button className="px-10" disabled={scanning} onClick={start}>
            {t('clients.scan.scan')}
          </Button>
        )}
      </div>
      <Dialog open={scanning} onOpenChange={() => {}} title={t('clients.scan.inProgress')}>
        <progress className="w-full accent-brand-600" aria-label={t('clients.scan.inProgress')} />
      </Dialog>
    </>
  )
}

/** The client's photo inside one of the 98 aura pictures, or 'Scanning...' before a scan. */
function AuraPicture({ context, picture }: { context: ScanContext; picture: number | null }) {
  const { t } = useTranslation()
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    const target = canvas.current
    const ctx = target?.getContext('2d')
    if (!target || !ctx || !picture) return
    drawAura(ctx, target.width, target.height, picture)
    if (!context.photoUrl) return
    const photo = new Image()
    photo.onload = () => {
      const { x, y, radiusX, radiusY } = AURA_PHOTO_OVAL
      const [cx, cy, rx, ry] = [
        x * target.width,
        y * target.height,
        radiusX * target.width,
        radiusY * target.height,
      ]
      ctx.save()
      ctx.beginPath()
      ctx.ellipse(cx, cy, rx, ry, 0, 0, Math.PI * 2)
      ctx.clip()
      // Cover the oval, as object-fit: cover would.
      const scale = Math.max((2 * rx) / photo.width, (2 * ry) / photo.height)
      const [w, h] = [photo.width * scale, photo.height * scale]
      ctx.drawImage(photo, cx - w / 2, cy - h / 2, w, h)
      ctx.restore()
    }
    photo.src = context.photoUrl
  }, [picture, context.photoUrl])

  return (
    <div className="relative mx-auto aspect-[3/4] w-full max-w-sm overflow-hidden rounded-3xl bg-slate-900 shadow-lg">
      {picture ? (
        <canvas
          ref={canvas}
          width={720}
          height={960}
          role="img"
          aria-label={t('clients.scan.auraAlt', { number: picture })}
          className="size-full"
          data-testid="aura-picture"
          data-picture={picture}
        />
      ) : (
        <div className="flex size-full flex-col items-center justify-center gap-4">
          {context.photoUrl && (
            <img
              src={context.photoUrl}
              alt=""
              className="aspect-[3/4] w-1/2 rounded-[50%] object-cover opacity-90 ring-4 ring-white/20"
            />
          )}
          <p className="text-lg text-white/90">{t('clients.scan.scanningPhoto')}</p>
        </div>
      )}
    </div>
  )
}

/** The seven chakras in the spec's order with their readings; the three highest highlighted. */
function ChakraList({ readings }: { readings: number[] | null }) {
  const { t } = useTranslation()
  const top = readings ? new Set(topThree(readings)) : new Set<number>()
  return (
    <section aria-labelledby="chakra-heading" className="flex flex-col gap-2">
      <h2 id="chakra-heading" className="text-lg font-semibold text-brand-900">
        {t('clients.scan.chakraHeading')}
      </h2>
      <ol className="flex flex-col gap-2" data-testid="chakra-list">
        {CHAKRAS.map((chakra, index) => {
          const high = top.has(index)
          const reading = readings?.[index]
          const { colour, Icon } = CHAKRA_LOOKS[index] ?? { colour: '#64748b', Icon: Sun }
          return (
            <li
              key={chakra}
              data-testid="chakra"
              data-high={high || undefined}
              className={`flex items-center gap-3 rounded-xl px-4 py-3 ring-1 ${
                high ? 'bg-amber-50 ring-amber-300' : 'bg-white ring-slate-200'
              }`}
            >
              <span
                aria-hidden
                className="flex size-9 items-center justify-center rounded-full text-white"
                style={{ background: colour }}
              >
                <Icon className="size-5" />
              </span>
              <span className="flex-1 font-medium text-slate-900">
                {t(`clients.scan.chakras.${chakra}`)}
              </span>
              <span
                className={`font-mono text-lg tabular-nums ${high ? 'font-bold text-amber-900' : 'text-slate-700'}`}
              >
                {reading ?? '—'}
                {high && <span className="sr-only"> ({t('clients.scan.highest')})</span>}
              </span>
            </li>
          )
        })}
      </ol>
    </section>
  )
}
