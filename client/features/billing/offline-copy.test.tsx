import { QueryClient } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { OfflineError } from '../../lib/offline-cache'
import { sessionQueryKey } from '../../lib/session'
import { keptForMember, memberCopyQuery, setKeptForMember } from './offline-copy'

// A member's own data kept for offline use: under their id, dated, and never another's.

const key = ['billing', 'plan'] as const
const noNetwork = () => Promise.reject(new TypeError('Failed to fetch'))

function clientOf(userId: string | null) {
  const client = new QueryClient()
  client.setQueryData(sessionQueryKey, { user: userId ? { id: userId } : null })
  return client
}

// Not asked again: happy-dom's browser says it is online, where a failure is retried twice.
const ask = (client: QueryClient, load: () => Promise<unknown>) =>
  client.fetchQuery({
    queryKey: key,
    queryFn: keptForMember('plan', load),
    ...memberCopyQuery,
    retry: false,
  })

beforeEach(() => localStorage.clear())
afterEach(() => localStorage.clear())

describe('keptForMember', () => {
  it('offline, a member gets their own last answer, dated when it was fetched, and the query still says it failed', async () => {
    const savedAt = Date.now()
    await ask(clientOf('ada'), async () => ({ plan: 'ada’s' }))

    const later = clientOf('ada')
    await expect(ask(later, noNetwork)).rejects.toBeInstanceOf(OfflineError)
    const state = later.getQueryState(key)
    expect(state?.data).toEqual({ plan: 'ada’s' })
    expect(state?.dataUpdatedAt).toBeGreaterThanOrEqual(savedAt)
    expect(state?.dataUpdatedAt).toBeLessThanOrEqual(Date.now())
    expect(state?.status).toBe('error')
  })

  it('another member on the same browser never gets it', async () => {
    await ask(clientOf('ada'), async () => ({ plan: 'ada’s' }))
    const other = clientOf('grace')
    await expect(ask(other, noNetwork)).rejects.toBeInstanceOf(OfflineError)
    expect(other.getQueryData(key)).toBeUndefined()
  })

  it('keeps nothing while nobody is known to be signed in', async () => {
    await ask(clientOf(null), async () => ({ plan: 'nobody’s' }))
    expect(Object.keys(localStorage)).toEqual([])
  })

  it('does not replace what the page already has with an older copy', async () => {
    await ask(clientOf('ada'), async () => ({ plan: 'kept' }))
    const client = clientOf('ada')
    client.setQueryData(key, { plan: 'newer, in memory' })
    await expect(ask(client, noNetwork)).rejects.toBeInstanceOf(OfflineError)
    expect(client.getQueryData(key)).toEqual({ plan: 'newer, in memory' })
  })

  it('passes on a refusal from the server as it is', async () => {
    await ask(clientOf('ada'), async () => ({ plan: 'kept' }))
    const refused = new Error('402')
    const client = clientOf('ada')
    await expect(ask(client, () => Promise.reject(refused))).rejects.toBe(refused)
    expect(client.getQueryData(key)).toBeUndefined()
  })
})

describe('setKeptForMember', () => {
  it('a change answered by a mutation is what the member gets offline after a reload, not the state before it', async () => {
    const client = clientOf('ada')
    await ask(client, async () => ({ reminders: false }))
    setKeptForMember(client, 'plan', key, { reminders: true })
    expect(client.getQueryData(key)).toEqual({ reminders: true })

    // A reload: a fresh query cache, and no network.
    const reloaded = clientOf('ada')
    await expect(ask(reloaded, noNetwork)).rejects.toBeInstanceOf(OfflineError)
    expect(reloaded.getQueryData(key)).toEqual({ reminders: true })
  })

  it('keeps nothing for another member, nor while nobody is known to be signed in', async () => {
    setKeptForMember(clientOf(null), 'plan', key, { reminders: true })
    expect(Object.keys(localStorage)).toEqual([])
    setKeptForMember(clientOf('ada'), 'plan', key, { reminders: true })
    const other = clientOf('grace')
    await expect(ask(other, noNetwork)).rejects.toBeInstanceOf(OfflineError)
    expect(other.getQueryData(key)).toBeUndefined()
  })
})
