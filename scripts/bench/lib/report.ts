import type { LoadRow } from './http-load'
import type { LighthouseResult } from './lighthouse-runs'
import type { Bytes } from './page-bytes'

/** Columns padded to their widest cell; the first is left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][], indent = '    '): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: string[]) =>
    indent +
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd()
  return [line(header), ...rows.map(line)].join('\n')
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
export const mb = (megabytes: number) => `${megabytes.toFixed(0)} MB`
export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
export const ms = (value: number) => `${value.toFixed(0)} ms`

export interface StartRow {
  label: string
  readyMs: number
  idleRssMb: number
  /** The start script built the client, so the time includes a build. */
  builtClient: boolean
}

export function startTable(rows: StartRow[]): string {
  return table(
    ['start', 'spawn → /readyz 200', 'RSS idle after ready'],
    rows.map((row) => [
      row.label,
      `${seconds(row.readyMs)}${row.builtClient ? ' (incl. a client build)' : ''}`,
      mb(row.idleRssMb),
    ]),
  )
}

export interface BytesRow {
  label: string
  bytes: Bytes
  usableMs?: number
}

export function bytesTable(rows: BytesRow[]): string {
  return table(
    ['page', 'JS sent', 'JS decoded', 'JS requests', 'all sent', 'all requests', 'usable at'],
    rows.map(({ label, bytes, usableMs }) => [
      label,
      kb(bytes.scriptTransferred),
      kb(bytes.scriptDecoded),
      String(bytes.scripts),
      kb(bytes.transferred),
      String(bytes.requests),
      usableMs === undefined ? '' : ms(usableMs),
    ]),
  )
}

export function lighthouseTable(results: LighthouseResult[]): string {
  const failures = results.flatMap(({ label, error }) =>
    error ? [`    ${label}: failed: ${error.split('\n')[0]}`] : [],
  )
  const rows = table(
    ['page', 'perf', 'a11y', 'best pr.', 'SEO', 'FCP', 'LCP', 'TBT', 'CLS', 'host BI'],
    results
      .flatMap(({ label, median }) => (median ? [{ label, median }] : []))
      .map(({ label, median }) => [
        label,
        median.performance.toFixed(0),
        median.accessibility.toFixed(0),
        median['best-practices'].toFixed(0),
        median.seo.toFixed(0),
        ms(median.fcp),
        ms(median.lcp),
        ms(median.tbt),
        median.cls.toFixed(3),
        median.benchmarkIndex.toFixed(0),
      ]),
  )
  // Lighthouse's own scale (docs/throttling.md): its 4× CPU slow-down is meant for a high-end
  // desktop; on a slower host the same page scores lower.
  const note =
    "    host BI: Lighthouse's benchmarkIndex of this machine during the runs; its 4× CPU slow-down" +
    '\n    assumes a high-end desktop (1500–2000); 1000–1500 is a low-end one, where scores come out lower.'
  return [rows, note, ...failures].join('\n')
}

export function loadTable(rows: LoadRow[]): string {
  return table(
    [
      'target',
      'conns',
      'req/s',
      'p50',
      'p99',
      'errors',
      'timeouts',
      'non-2xx',
      '÷ bare',
      'CPU/req',
    ],
    rows.map((row) => [
      row.label,
      String(row.connections),
      row.requestsPerSecond.toFixed(0),
      ms(row.p50Ms),
      ms(row.p99Ms),
      String(row.errors),
      String(row.timeouts),
      String(row.non2xx),
      row.ratioToReference.toFixed(2),
      Number.isFinite(row.cpuUsPerRequest) ? `${row.cpuUsPerRequest.toFixed(0)} µs` : '–',
    ]),
  )
}
