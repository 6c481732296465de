// Prints how long each session-visuals style takes per frame at a fixed 1280×720, in headless
// Chromium: mean and 95th-percentile frame interval and the frame rate, plus the 2D fallback.
// Run: node --import tsx scripts/bench/visuals-frame-time.ts  (BENCH_SECONDS=… to measure longer)
//
// The figures are for comparing styles and catching regressions, never a pass/fail gate: this
// Chromium renders WebGL with SwiftShader, on the CPU, which is one to two orders of magnitude
// slower than any phone's GPU. A style at 300 ms here can be a comfortable 60 fps on a mid-range
// phone; what matters is how the styles compare and how a change moves them. Adaptive resolution
// is off for the measurement (resolutionScale: 1), so every style pays for the same pixels.
import path from 'node:path'
import { build } from 'esbuild'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, findChromium } from '../../tests/e2e/support/chromium'

const WIDTH = 1280
const HEIGHT = 720
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
/** Frames before this are not measured: shader compile and the first allocations land there. */
const WARM_UP_MS = 500
const root = path.resolve(import.meta.dirname, '../..')
const visualsDir = path.join(root, 'client/features/harmonize/visuals')

interface Measurement {
  kind: string
  size: string
  frames: number[]
}

// Runs in the page, bundled with the renderer. Plain JavaScript in a string, because this
// script's TypeScript project has no DOM types.
const PAGE_CODE = `
import { createFractalRenderer } from './renderer'
import { FRACTAL_STYLES } from './styles'

window.styleIds = FRACTAL_STYLES.map((style) => style.id)

window.measure = (style, seconds, warmUpMs, disableWebGl2) => new Promise((resolve) => {
  if (disableWebGl2) {
    const original = HTMLCanvasElement.prototype.getContext
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
      return type === 'webgl2' ? null : original.call(this, type, ...rest)
    }
  }
  const canvas = document.querySelector('canvas')
  const frames = []
  const startedAt = performance.now()
  const renderer = createFractalRenderer(canvas, {
    palette: ['#08142b', '#2a6f8f', '#cdeee6'],
    style,
    reducedMotion: false,
    timeOffset: 0,
    resolutionScale: disableWebGl2 ? 0.5 : 1,
    onFrame: (ms) => {
      if (performance.now() - startedAt >= warmUpMs) frames.push(ms)
    },
  })
  renderer.start()
  setTimeout(() => {
    renderer.stop()
    const { kind, canvas: drawn } = renderer
    resolve({ kind, size: drawn.width + 'x' + drawn.height, frames })
    renderer.destroy()
  }, warmUpMs + seconds * 1000)
})
`

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)
  return sorted[Math.max(0, index)] ?? Number.NaN
}

function row(label: string, { kind, size, frames }: Measurement): string {
  const sorted = [...frames].sort((a, b) => a - b)
  const mean = frames.reduce((sum, ms) => sum + ms, 0) / (frames.length || 1)
  const p95 = percentile(sorted, 0.95)
  const fps = frames.length ? 1000 / mean : 0
  return [
    label.padEnd(16),
    kind.padEnd(7),
    size.padEnd(10),
    String(frames.length).padStart(6),
    mean.toFixed(1).padStart(9),
    p95.toFixed(1).padStart(9),
    fps.toFixed(1).padStart(7),
  ].join(' ')
}

async function main() {
  const bundle = await build({
    stdin: { contents: PAGE_CODE, resolveDir: visualsDir, loader: 'ts' },
    bundle: true,
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  const script = bundle.outputFiles[0]?.text ?? ''
  const html = `<!doctype html><html><body style="margin:0;background:#000">
    <canvas style="display:block;width:${WIDTH}px;height:${HEIGHT}px"></canvas></body></html>`

  const browser = await chromium.launch({
    executablePath: await findChromium(),
    args: CHROMIUM_ARGS,
  })
  try {
    const context = await browser.newContext({
      viewport: { width: WIDTH, height: HEIGHT },
      deviceScaleFactor: 1,
    })
    // A fresh page per run, so one style's GPU state cannot slow the next.
    const run = async (style: number, disableWebGl2: boolean): Promise<Measurement> => {
      const page = await context.newPage()
      page.on('pageerror', (error) => console.error(`page error: ${error.message}`))
      await page.setContent(html)
      await page.addScriptTag({ content: script })
      const result = (await page.evaluate(
        `window.measure(${style}, ${SECONDS}, ${WARM_UP_MS}, ${disableWebGl2})`,
      )) as Measurement
      await page.close()
      return result
    }

    const probe = await context.newPage()
    await probe.setContent(html)
    await probe.addScriptTag({ content: script })
    const styleIds = (await probe.evaluate('window.styleIds')) as string[]
    await probe.close()

    console.log(`Session visuals, ${WIDTH}×${HEIGHT} CSS px at scale 1, ${SECONDS} s per style`)
    console.log('(SwiftShader: software WebGL on the CPU, far slower than a phone GPU.)\n')
    const columns = ['style'.padEnd(16), 'kind'.padEnd(7), 'drawn'.padEnd(10)]
    console.log(`${columns.join(' ')} frames   mean ms    p95 ms     fps`)
    for (const [index, id] of styleIds.entries()) {
      console.log(row(`${index} ${id}`, await run(index, false)))
    }
    console.log(row('2D fallback', await run(0, true)))
  } finally {
    await browser.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
