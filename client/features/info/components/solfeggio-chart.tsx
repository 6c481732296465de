import { useId } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * The nine tones the sessions play (the harmonizing feature's tuning.ts holds the same list;
 * each tone here also names a theme in the catalogues).
 */
export const SOLFEGGIO_TONES = [174, 285, 396, 417, 528, 639, 741, 852, 963] as const

const WIDTH = 360
const ROW = 34
const TOP = 6
const LABEL_WIDTH = 66
const BAR_MAX = 180
const BAR_HEIGHT = 22
const AMPLITUDE = 6
const HIGHEST = Math.max(...SOLFEGGIO_TONES)
const LOWEST = Math.min(...SOLFEGGIO_TONES)

// From the brand blue of the lowest tone to a soft violet for the highest.
const FROM = [0x2f, 0x6f, 0xbf]
const TO = [0x7c, 0x3a, 0xed]

function colourAt(fraction: number): string {
  const channels = FROM.map((start, index) =>
    Math.round(start + ((TO[index] ?? start) - start) * fraction),
  )
  return `rgb(${channels.join(' ')})`
}

/**
 * A sine wave across a bar. Its wavelength shrinks with the square root of the frequency, so
 * the highest tone still reads as a wave on a phone rather than as a solid band.
 */
function wavePath(length: number, hz: number, middle: number): string {
  const wavelength = 22 * Math.sqrt(LOWEST / hz)
  const points: string[] = []
  for (let x = 0; x <= length; x += 1) {
    const y = middle - AMPLITUDE * Math.sin((2 * Math.PI * x) / wavelength)
    points.push(`${(LABEL_WIDTH + x).toFixed(1)} ${y.toFixed(2)}`)
  }
  return `M${points.join('L')}`
}

/**
 * The nine Solfeggio tones as a chart drawn in code: a bar per tone, as long as the tone is
 * high, with a wave that tightens as it rises, and the theme we give each tone.
 */
export function SolfeggioChart() {
  const { t } = useTranslation()
  const titleId = useId()
  const descriptionId = useId()
  const rows = SOLFEGGIO_TONES.map((hz, index) => {
    const theme = t(`info.solfeggio.themes.${hz}`)
    return {
      hz,
      theme,
      label: t('info.solfeggio.tone', { hz, theme }),
      length: Math.round((BAR_MAX * hz) / HIGHEST),
      colour: colourAt(index / (SOLFEGGIO_TONES.length - 1)),
      middle: TOP + index * ROW + ROW / 2,
    }
  })
  const height = TOP * 2 + rows.length * ROW
  return (
    <figure className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-labelledby={`${titleId} ${descriptionId}`}
        className="mx-auto w-full max-w-xl"
        data-testid="solfeggio-chart"
      >
        <title id={titleId}>{t('info.solfeggio.chartTitle')}</title>
        <desc id={descriptionId}>{rows.map((row) => row.label).join('; ')}</desc>
        {rows.map((row) => (
          <g key={row.hz}>
            <text
              x={LABEL_WIDTH - 8}
              y={row.middle}
              textAnchor="end"
              dominantBaseline="central"
              fontSize="14"
              fontWeight="600"
              fill="#102b50"
            >
              {row.hz} Hz
            </text>
            <rect
              x={LABEL_WIDTH}
              y={row.middle - BAR_HEIGHT / 2}
              width={row.length}
              height={BAR_HEIGHT}
              rx="6"
              fill={row.colour}
              fillOpacity="0.14"
            />
            <path
              d={wavePath(row.length, row.hz, row.middle)}
              fill="none"
              stroke={row.colour}
              strokeWidth="1.6"
              strokeLinecap="round"
            />
            <text
              x={LABEL_WIDTH + row.length + 8}
              y={row.middle}
              dominantBaseline="central"
              fontSize="14"
              fill="#334155"
            >
              {row.theme}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="text-center text-sm text-slate-600">
        <span className="font-medium text-brand-900">{t('info.solfeggio.chartTitle')}.</span>{' '}
        {t('info.solfeggio.chartDescription')}
      </figcaption>
    </figure>
  )
}
