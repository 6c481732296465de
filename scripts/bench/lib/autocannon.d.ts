// The part of autocannon 9's programmatic API the bench uses; the package ships no types.
declare module 'autocannon' {
  interface Options {
    url: string
    connections?: number
    /** Seconds. */
    duration?: number
    headers?: Record<string, string>
    /** Seconds before a request counts as a timeout. */
    timeout?: number
  }
  interface Histogram {
    average: number
    p50: number
    p99: number
  }
  interface Result {
    requests: Histogram & { total: number }
    /** Milliseconds. */
    latency: Histogram
    errors: number
    timeouts: number
    non2xx: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
