import { useTranslation } from 'react-i18next'
import { CHAKRAS, type ClientScan, READING_MAX, READING_MIN } from '../../../../domain/clients'
import { useFormat } from '../../../lib/format'
import { useScanHistory } from '../api'

const CHART_WIDTH = 320
const CHART_HEIGHT = 140
const LINE_COLOURS = ['#7c3aed', '#4338ca', '#0369a1', '#15803d', '#a16207', '#c2410c', '#b91c1c']

/** A client's scans, newest first, with the chakra readings over time as a small chart. */
export function ScanHistory({ clientId }: { clientId: string }) {
  const { t } = useTranslation()
  const history = useScanHistory(clientId)
  const scans = history.data ?? []
  const format = useFormat()
  return (
    <section
      aria-labelledby="scan-history"
      className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      data-testid="scan-history"
    >
      <h2 id="scan-history" className="text-lg font-semibold text-brand-900">
        {t('clients.scan.historyHeading')}
      </h2>
      {history.isSuccess && scans.length === 0 && (
        <p className="text-slate-600">{t('clients.scan.historyEmpty')}</p>
      )}
      <ChakraChart scans={scans} />
      <ol className="flex flex-col divide-y divide-slate-100">
        {scans.map((scan) => (
          <li
            key={scan.id}
            className="flex flex-col gap-0.5 py-2 text-sm"
            data-testid="history-entry"
          >
            <span className="text-slate-500">
              <time dateTime={scan.createdAt}>{format.dateTime(scan.createdAt)}</time>
            </span>
            <span className="font-medium text-slate-900">
              {scan.kind === 'aura'
                ? t('clients.scan.auraEntry', { number: scan.auraPicture })
                : `${t('clients.scan.chakraEntry')}: ${(scan.chakras ?? [])
                    .map(
                      (value, index) => `${t(`clients.scan.chakras.${CHAKRAS[index]}`)} ${value}`,
                    )
                    .join(', ')}`}
            </span>
            {scan.signature && <span className="text-slate-600 italic">“{scan.signature}”</span>}
          </li>
        ))}
      </ol>
    </section>
  )
}

/** One line per chakra across the chakra scans, oldest on the left; nothing before two scans. */
function ChakraChart({ scans }: { scans: ClientScan[] }) {
  const { t } = useTranslation()
  const readings = scans
    .filter((scan) => scan.kind === 'chakra' && scan.chakras?.length === CHAKRAS.length)
    .reverse()
  if (readings.length < 2) return null
  const x = (index: number) => (index / (readings.length - 1)) * (CHART_WIDTH - 8) + 4
  const y = (value: number) =>
    CHART_HEIGHT - 4 - ((value - READING_MIN) / (READING_MAX - READING_MIN)) * (CHART_HEIGHT - 8)
  return (
    <figure className="flex flex-col gap-2">
      <svg
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        role="img"
        aria-label={t('clients.scan.chartLabel')}
        className="w-full rounded-lg bg-slate-50 ring-1 ring-slate-200"
        data-testid="chakra-chart"
      >
        {CHAKRAS.map((chakra, chakraIndex) => (
          <polyline
            key={chakra}
            fill="none"
            stroke={LINE_COLOURS[chakraIndex]}
            strokeWidth={2}
            strokeLinejoin="round"
            points={readings
              .map((scan, index) => `${x(index)},${y(scan.chakras?.[chakraIndex] ?? READING_MIN)}`)
              .join(' ')}
          />
        ))}
      </svg>
      <figcaption className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700">
        {CHAKRAS.map((chakra, index) => (
          <span key={chakra} className="flex items-center gap-1">
            <span
              aria-hidden
              className="size-2.5 rounded-full"
              style={{ background: LINE_COLOURS[index] }}
            />
            {t(`clients.scan.chakras.${chakra}`)}
          </span>
        ))}
      </figcaption>
    </figure>
  )
}
