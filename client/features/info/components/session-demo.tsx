import Pause from 'lucide-react/icons/pause'
import Play from 'lucide-react/icons/play'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'

// The How-To page's short demonstration of a session (spec scans §2 How-To: "a video link"):
// four scenes drawn in SVG that cross-fade on a loop, with the matching step of the list lit at
// the same time. Made in code, so it weighs a few kilobytes and needs no video file or player.
// The styles live here, not in the app's stylesheet, so only this page carries them.

const STEPS = ['choose', 'place', 'relax', 'drink'] as const

// 4 s a scene. Slow cross-fades and a slow turn only: nothing flashes (PRODUCT.md principle 6).
const CSS = `
.hz-demo-anim { animation-duration: 16s; animation-iteration-count: infinite; animation-timing-function: ease-in-out; animation-fill-mode: backwards; }
.hz-demo-scene { opacity: 0; animation-name: hz-demo-scene; }
.hz-demo-step { animation-name: hz-demo-step; }
.hz-demo-glass { animation-name: hz-demo-glass; }
.hz-demo-d1 { animation-delay: 4s; } .hz-demo-d2 { animation-delay: 8s; } .hz-demo-d3 { animation-delay: 12s; }
.hz-demo-spin { transform-box: fill-box; transform-origin: center; animation: hz-demo-spin 12s linear infinite; }
.hz-demo-pulse { transform-box: fill-box; transform-origin: center; animation: hz-demo-pulse 2s ease-out infinite; }
.hz-demo-ring { animation: hz-demo-ring 16s linear infinite; animation-delay: 8s; animation-fill-mode: backwards; }
[data-paused] .hz-demo-anim, [data-paused] .hz-demo-spin, [data-paused] .hz-demo-pulse, [data-paused] .hz-demo-ring { animation-play-state: paused; }
@keyframes hz-demo-scene { 0% { opacity: 0 } 4% { opacity: 1 } 24% { opacity: 1 } 28% { opacity: 0 } 100% { opacity: 0 } }
@keyframes hz-demo-step { 0% { background-color: transparent } 4% { background-color: var(--color-brand-100) } 24% { background-color: var(--color-brand-100) } 28% { background-color: transparent } 100% { background-color: transparent } }
@keyframes hz-demo-glass { 0% { opacity: 0 } 25% { opacity: 0 } 29% { opacity: 1 } 96% { opacity: 1 } 100% { opacity: 0 } }
@keyframes hz-demo-spin { to { transform: rotate(360deg) } }
@keyframes hz-demo-pulse { 0% { transform: scale(0.6); opacity: 0.9 } 100% { transform: scale(1.6); opacity: 0 } }
@keyframes hz-demo-ring { 0% { stroke-dashoffset: 0 } 25% { stroke-dashoffset: 226 } 100% { stroke-dashoffset: 226 } }
@media (prefers-reduced-motion: reduce) { .hz-demo-spin, .hz-demo-pulse, .hz-demo-ring { animation: none; } }
`

const TILE_COLOURS = ['#c3daf1', '#d8ccf5', '#bfe3d8', '#f5dcc3', '#c9d7f0', '#ecd0e4']

function Screen({ fill }: { fill: string }) {
  return <rect x="78" y="24" width="164" height="152" rx="8" fill={fill} />
}

export function SessionDemo() {
  const { t } = useTranslation()
  const [paused, setPaused] = useState(false)
  const titleId = useId()
  const delay = (index: number) => (index === 0 ? '' : ` hz-demo-d${index}`)
  return (
    <figure
      className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      data-paused={paused || undefined}
      data-testid="session-demo"
    >
      <style>{CSS}</style>
      <div className="flex items-center justify-between gap-3">
        <figcaption id={titleId} className="font-semibold text-brand-900">
          {t('info.howTo.demoTitle')}
        </figcaption>
        <button
          type="button"
          onClick={() => setPaused((was) => !was)}
          aria-label={paused ? t('info.howTo.play') : t('info.howTo.pause')}
          className="rounded-full p-2 text-brand-700 ring-1 ring-brand-200 hover:bg-brand-50"
        >
          {paused ? (
            <Play aria-hidden className="size-5" />
          ) : (
            <Pause aria-hidden className="size-5" />
          )}
        </button>
      </div>
      <div className="grid items-center gap-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        {/* The steps below say what the drawing shows, so screen readers skip the drawing. */}
        <svg viewBox="0 0 320 200" aria-hidden="true" className="mx-auto w-full max-w-sm">
          <rect x="70" y="8" width="180" height="184" rx="16" fill="#102b50" />
          <Screen fill="#f4f8fc" />

          <g className={`hz-demo-anim hz-demo-scene${delay(0)}`}>
            <rect x="78" y="24" width="164" height="20" rx="8" fill="#1d4f91" />
            <text x="160" y="38" textAnchor="middle" fontSize="10" fill="#fff" fontWeight="600">
              {t('info.howTo.demoLabels.home')}
            </text>
            {TILE_COLOURS.map((colour, index) => (
              <rect
                key={colour}
                x={88 + (index % 3) * 50}
                y={54 + Math.floor(index / 3) * 56}
                width="44"
                height="48"
                rx="6"
                fill={colour}
                stroke={index === 1 ? '#1d5aa8' : 'none'}
                strokeWidth="2"
              />
            ))}
            <circle
              className="hz-demo-pulse"
              cx="160"
              cy="78"
              r="12"
              fill="#1d5aa8"
              opacity="0.5"
            />
          </g>

          <g className={`hz-demo-anim hz-demo-scene${delay(1)}`}>
            <Screen fill="#e3eef9" />
            <circle cx="160" cy="92" r="26" fill="#1d5aa8" />
            <path d="M152 78 L174 92 L152 106 Z" fill="#fff" />
            <circle
              className="hz-demo-pulse"
              cx="160"
              cy="92"
              r="26"
              fill="#1d5aa8"
              opacity="0.4"
            />
            <text x="160" y="142" textAnchor="middle" fontSize="11" fill="#102b50" fontWeight="600">
              {t('info.howTo.demoLabels.play')}
            </text>
          </g>

          <g className={`hz-demo-anim hz-demo-scene${delay(2)}`}>
            <Screen fill="#102b50" />
            <g className="hz-demo-spin">
              {[0, 30, 60, 90, 120, 150].map((angle, index) => (
                <ellipse
                  key={angle}
                  cx="160"
                  cy="100"
                  rx="46"
                  ry="14"
                  fill="none"
                  stroke={index % 2 ? '#b9a3f0' : '#8fc1f0'}
                  strokeOpacity="0.8"
                  strokeWidth="1.5"
                  transform={`rotate(${angle} 160 100)`}
                />
              ))}
            </g>
            <circle
              className="hz-demo-ring"
              cx="160"
              cy="100"
              r="36"
              fill="none"
              stroke="#ffffff"
              strokeOpacity="0.7"
              strokeWidth="2"
              strokeDasharray="226"
              transform="rotate(-90 160 100)"
            />
            <text x="160" y="104" textAnchor="middle" fontSize="11" fill="#fff" fontWeight="600">
              3:00
            </text>
          </g>

          <g className={`hz-demo-anim hz-demo-scene${delay(3)}`}>
            <Screen fill="#f4f8fc" />
            <circle cx="160" cy="82" r="24" fill="#1d5aa8" />
            <path
              d="M148 82 L157 91 L173 73"
              fill="none"
              stroke="#fff"
              strokeWidth="4"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
            <text x="160" y="128" textAnchor="middle" fontSize="12" fill="#102b50" fontWeight="700">
              {t('info.howTo.demoLabels.complete')}
            </text>
            <text x="160" y="146" textAnchor="middle" fontSize="9.5" fill="#334155">
              {t('info.howTo.demoLabels.ready')}
            </text>
          </g>

          <g className="hz-demo-anim hz-demo-glass">
            <path
              d="M262 118 L300 118 L295 190 L267 190 Z"
              fill="#ffffff"
              stroke="#8fb3dc"
              strokeWidth="2"
            />
            <path d="M264.5 140 L297.5 140 L295 190 L267 190 Z" fill="#8fc1f0" fillOpacity="0.7" />
          </g>
        </svg>
        <ol aria-labelledby={titleId} className="flex flex-col gap-1.5">
          {STEPS.map((step, index) => (
            <li
              key={step}
              className={`hz-demo-anim hz-demo-step${delay(index)} flex gap-3 rounded-lg px-3 py-2 text-slate-800`}
            >
              <span
                aria-hidden
                className="flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white"
              >
                {index + 1}
              </span>
              {t(`info.howTo.steps.${step}`)}
            </li>
          ))}
        </ol>
      </div>
    </figure>
  )
}
