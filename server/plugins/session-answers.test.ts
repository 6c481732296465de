import { afterEach, describe, expect, it, vi } from 'vitest'
import { recordStorageRead, sessionAnswers } from './session-answers'

// A stand-in for better-auth with the shape of its session lookup: it reads the session's entry
// and the user's revocation mark from the secondary storage, and answers from them.
function fakeAuth() {
  const storage = new Map<string, string>()
  const read = async (key: string) => {
    const value = storage.get(key) ?? null
    recordStorageRead(key, value)
    return value
  }
  let calls = 0
  const answers = sessionAnswers<{ name: string }>({
    getSession: async (cookie) => {
      calls += 1
      const stored = await read(`token-of-${cookie}`)
      await read('revoked-before-ann')
      if (!stored) return null
      const { name, expiresAt } = JSON.parse(stored) as { name: string; expiresAt: number }
      return { user: { name }, expiresAt: new Date(expiresAt) }
    },
    readStorage: async (key) => storage.get(key) ?? null,
  })
  const signIn = (cookie: string, name: string, expiresAt = Date.now() + 86_400_000) =>
    storage.set(`token-of-${cookie}`, JSON.stringify({ name, expiresAt }))
  return { storage, answers, signIn, calls: () => calls }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('session answers', () => {
  it('answer a cookie again without asking better-auth while what it read is unchanged', async () => {
    const auth = fakeAuth()
    auth.signIn('a=1', 'Ann')
    expect(await auth.answers('a=1')).toEqual({ name: 'Ann' })
    expect(await auth.answers('a=1')).toEqual({ name: 'Ann' })
    expect(await auth.answers('a=1')).toEqual({ name: 'Ann' })
    expect(auth.calls()).toBe(1)
  })

  it('ask again at once when a sign-out deletes the session entry', async () => {
    const auth = fakeAuth()
    auth.signIn('a=1', 'Ann')
    await auth.answers('a=1')
    auth.storage.delete('token-of-a=1')
    expect(await auth.answers('a=1')).toBeNull()
  })

  it('ask again at once when an entry that was empty is written (every session revoked)', async () => {
    const auth = fakeAuth()
    auth.signIn('a=1', 'Ann')
    await auth.answers('a=1')
    auth.storage.set('revoked-before-ann', String(Date.now()))
    await auth.answers('a=1')
    expect(auth.calls()).toBe(2)
  })

  it('show a change to the user (a new name) on the next request', async () => {
    const auth = fakeAuth()
    auth.signIn('a=1', 'Ann')
    await auth.answers('a=1')
    auth.signIn('a=1', 'Anna')
    expect(await auth.answers('a=1')).toEqual({ name: 'Anna' })
  })

  it('never keep a refusal: a cookie that gets a session later is answered', async () => {
    const auth = fakeAuth()
    expect(await auth.answers('a=1')).toBeNull()
    auth.signIn('a=1', 'Ann')
    expect(await auth.answers('a=1')).toEqual({ name: 'Ann' })
  })

  it('keep nothing for a visitor without cookies, and never ask better-auth for one', async () => {
    const auth = fakeAuth()
    expect(await auth.answers(undefined)).toBeNull()
    expect(auth.calls()).toBe(0)
  })

  it('ask again after a minute, so better-auth can renew a session in use, and after it ends', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') })
    const auth = fakeAuth()
    auth.signIn('a=1', 'Ann', Date.now() + 90_000)
    await auth.answers('a=1')
    vi.advanceTimersByTime(59_000)
    await auth.answers('a=1')
    expect(auth.calls()).toBe(1)
    vi.advanceTimersByTime(2_000)
    await auth.answers('a=1')
    expect(auth.calls()).toBe(2)
    // The session ends at 12:01:30 whatever the storage still holds.
    vi.advanceTimersByTime(30_000)
    await auth.answers('a=1')
    expect(auth.calls()).toBe(3)
  })

  it('keep apart the answers of two cookies', async () => {
    const auth = fakeAuth()
    auth.signIn('a=1', 'Ann')
    auth.signIn('b=2', 'Bo')
    expect(await Promise.all([auth.answers('a=1'), auth.answers('b=2')])).toEqual([
      { name: 'Ann' },
      { name: 'Bo' },
    ])
    auth.storage.delete('token-of-b=2')
    expect(await auth.answers('a=1')).toEqual({ name: 'Ann' })
    expect(await auth.answers('b=2')).toBeNull()
  })

  it('keep no answer when an entry changed while better-auth was reading it (a sign-out mid-renewal)', async () => {
    const storage = new Map([['token', 'v1']])
    let calls = 0
    const answers = sessionAnswers<{ name: string }>({
      getSession: async () => {
        calls += 1
        const first = storage.get('token') ?? null
        recordStorageRead('token', first)
        // A sign-out elsewhere, between the read and the renewal's second read.
        storage.delete('token')
        recordStorageRead('token', storage.get('token') ?? null)
        recordStorageRead('revoked-before', 'T')
        return first ? { user: { name: 'Ann' }, expiresAt: new Date(Date.now() + 60_000) } : null
      },
      readStorage: async (key) => storage.get(key) ?? (key === 'revoked-before' ? 'T' : null),
    })
    expect(await answers('a=1')).toEqual({ name: 'Ann' })
    expect(await answers('a=1')).toBeNull()
    expect(calls).toBe(2)
  })
})
