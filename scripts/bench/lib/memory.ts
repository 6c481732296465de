import { readFileSync } from 'node:fs'

/** A field of /proc/<pid>/status in MB (VmRSS: resident now; VmHWM: the highest it has been). */
export function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]
  if (!kb) throw new Error(`/proc/${pid}/status has no ${field}`)
  return Number(kb) / 1024
}

/**
 * Samples the resident size every `everyMs` until stopped and returns the highest seen. VmHWM
 * cannot tell this: it also holds the start-up's peak, which can be far above any load's.
 */
export function sampleRss(pid: number, everyMs = 100): { stop(): number } {
  let peak = procStatusMb(pid, 'VmRSS')
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, procStatusMb(pid, 'VmRSS'))
    } catch {
      // The process ended; the caller finds out from its own requests.
    }
  }, everyMs)
  return {
    stop() {
      clearInterval(timer)
      return peak
    },
  }
}

/**
 * CPU time the process has used so far (user and system), in ms, from /proc/<pid>/stat. Its
 * fields count in USER_HZ, which Linux fixes at 100 per second for user space.
 */
export function procCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // The command name may hold spaces; the fields after it are plain numbers.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  if (!Number.isFinite(ticks)) throw new Error(`/proc/${pid}/stat has no CPU times`)
  return ticks * 10
}
