import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { forgetOnMemberChange, sessionQueryKey } from './session'

// A session that ends without Log Out (expired, ended on another device), then another member
// signing in in the same tab: nothing of the one before stays in memory for them.

const planKey = ['billing', 'plan'] as const
const pricesKey = ['billing', 'prices'] as const

function signedIn(client: QueryClient, id: string | null) {
  client.setQueryData(sessionQueryKey, { user: id ? { id } : null })
}

function appClient() {
  const client = new QueryClient()
  forgetOnMemberChange(client)
  return client
}

describe('forgetOnMemberChange', () => {
  it("another member signing in after a session ended never gets the one before's data", () => {
    const client = appClient()
    signedIn(client, 'ada')
    client.setQueryData(planKey, { plan: 'ada’s' })
    // Ada's session expires: the app learns nobody is signed in; then Grace signs in.
    signedIn(client, null)
    signedIn(client, 'grace')
    expect(client.getQueryData(planKey)).toBeUndefined()
    expect(client.getQueryData(sessionQueryKey)).toEqual({ user: { id: 'grace' } })
  })

  it('the same member signing in again, and a visitor signing in, keep what was there', () => {
    const client = appClient()
    signedIn(client, null)
    client.setQueryData(pricesKey, ['for everyone'])
    signedIn(client, 'ada')
    client.setQueryData(planKey, { plan: 'ada’s' })
    signedIn(client, null)
    signedIn(client, 'ada')
    expect(client.getQueryData(pricesKey)).toEqual(['for everyone'])
    expect(client.getQueryData(planKey)).toEqual({ plan: 'ada’s' })
  })
})
