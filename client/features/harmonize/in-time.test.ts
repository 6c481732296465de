import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { savedCopyInTime } from './in-time'

describe('the saved copy a session plays', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('is used when the device finds it in time', async () => {
    await expect(savedCopyInTime(Promise.resolve('blob:copy'), 2_000, true)).resolves.toBe(
      'blob:copy',
    )
  })

  it('gives way to streaming when the device is slow, and a late copy is let go', async () => {
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    let found: (url: string) => void = () => {}
    const lookup = new Promise<string | null>((resolve) => {
      found = resolve
    })
    const answer = savedCopyInTime(lookup, 2_000, true)
    await vi.advanceTimersByTimeAsync(1_999)
    let settled = false
    void answer.then(() => {
      settled = true
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await expect(answer).resolves.toBeNull()
    found('blob:late')
    await vi.advanceTimersByTimeAsync(0)
    expect(revoke).toHaveBeenCalledWith('blob:late')
    revoke.mockRestore()
  })

  it('is waited for however long it takes offline, where nothing can be streamed', async () => {
    let found: (url: string) => void = () => {}
    const lookup = new Promise<string | null>((resolve) => {
      found = resolve
    })
    const answer = savedCopyInTime(lookup, 2_000, false)
    await vi.advanceTimersByTimeAsync(60_000)
    found('blob:copy')
    await expect(answer).resolves.toBe('blob:copy')
  })
})
