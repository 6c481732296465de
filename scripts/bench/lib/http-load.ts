import { spawn } from 'node:child_process'
import path from 'node:path'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { procCpuMs } from './memory'
import { median } from './stats'

export interface LoadTarget {
  label: string
  url: string
  headers?: Record<string, string>
  /** The serving process: its CPU time per request is measured too. */
  pid?: number
}

export interface LoadPlan {
  /** The bare-Fastify reference; every other target's rate is divided by its rate in the round. */
  reference: LoadTarget
  targets: LoadTarget[]
  connections: number[]
  rounds: number
  /** Seconds per measurement. */
  seconds: number
  /** Seconds each target runs once before the rounds, unmeasured (JIT, caches, pools). */
  warmUpSeconds: number
}

export interface LoadRow {
  label: string
  connections: number
  /** Medians over the rounds. */
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  /** Sums over the rounds: any failure matters, not the typical round's. */
  errors: number
  timeouts: number
  non2xx: number
  /** Median over the rounds of this rate ÷ the reference's rate in the same round. */
  ratioToReference: number
  /**
   * Median over the rounds of the serving process's CPU time per answered request, in µs (NaN
   * without a pid). Unlike the rate it hardly depends on how busy the load generator was.
   */
  cpuUsPerRequest: number
}

interface Sample {
  rps: number
  p50: number
  p99: number
  errors: number
  timeouts: number
  non2xx: number
  cpuUsPerRequest: number
}

async function measure(target: LoadTarget, connections: number, seconds: number): Promise<Sample> {
  const cpuBefore = target.pid === undefined ? Number.NaN : procCpuMs(target.pid)
  const result = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    ...(target.headers ? { headers: target.headers } : {}),
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    cpuUsPerRequest:
      target.pid === undefined
        ? Number.NaN
        : ((procCpuMs(target.pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total),
  }
}

/**
 * Runs the plan round by round (each round measures every target at every connection count,
 * reference first), so that the machine's other work weighs on a round's figures alike.
 */
export async function runLoad(plan: LoadPlan, onStep?: (text: string) => void): Promise<LoadRow[]> {
  const all = [plan.reference, ...plan.targets]
  for (const target of all) {
    onStep?.(`warm-up ${target.label}`)
    await measure(target, 10, plan.warmUpSeconds)
  }
  const samples = new Map<string, Sample[]>()
  const ratios = new Map<string, number[]>()
  const key = (target: LoadTarget, connections: number) => `${target.label}\u0000${connections}`
  for (let round = 1; round <= plan.rounds; round++) {
    for (const connections of plan.connections) {
      let referenceRps = Number.NaN
      for (const target of all) {
        onStep?.(`round ${round}/${plan.rounds}, ${connections} connections: ${target.label}`)
        const sample = await measure(target, connections, plan.seconds)
        if (target === plan.reference) referenceRps = sample.rps
        const id = key(target, connections)
        samples.set(id, [...(samples.get(id) ?? []), sample])
        ratios.set(id, [...(ratios.get(id) ?? []), sample.rps / referenceRps])
      }
    }
  }
  return plan.connections.flatMap((connections) =>
    all.map((target) => {
      const list = samples.get(key(target, connections)) ?? []
      const sum = (pick: (sample: Sample) => number) =>
        list.reduce((total, sample) => total + pick(sample), 0)
      return {
        label: target.label,
        connections,
        requestsPerSecond: median(list.map((sample) => sample.rps)),
        p50Ms: median(list.map((sample) => sample.p50)),
        p99Ms: median(list.map((sample) => sample.p99)),
        errors: sum((sample) => sample.errors),
        timeouts: sum((sample) => sample.timeouts),
        non2xx: sum((sample) => sample.non2xx),
        ratioToReference: median(ratios.get(key(target, connections)) ?? []),
        cpuUsPerRequest: median(list.map((sample) => sample.cpuUsPerRequest)),
      }
    }),
  )
}

/** Starts the bare-Fastify reference (hello-fastify.ts) in a child process. */
export async function startHelloFastify(): Promise<{
  url: string
  pid: number | undefined
  stop(): Promise<void>
}> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'hello-fastify.ts')],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } },
  )
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const lines = createInterface({ input: child.stdout })
  const first = await Promise.race([
    new Promise<string>((resolve) => lines.once('line', resolve)),
    exit.then(() => {
      throw new Error('The bare-Fastify reference exited before it listened')
    }),
  ])
  lines.close()
  child.stdout.resume()
  const { address } = JSON.parse(first) as { address: string }
  return {
    url: `${address}/`,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM')
      await exit
    },
  }
}
