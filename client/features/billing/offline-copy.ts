import type { QueryClient, QueryFunction } from '@tanstack/react-query'
import {
  isNetworkFailure,
  OfflineError,
  offlineFirstQuery,
  recallEntry,
  remember,
} from '../../lib/offline-cache'
import { sessionQueryKey } from '../../lib/session'

// A member's billing kept on the device, so My Account shows it offline as it last was. Here in
// billing, not in client/lib: in the shared code the sign-in page would download it too.

/**
 * The key of one member's copy. Log Out clears every copy, but a session can also end without it
 * (it expired, or was ended from another device) and someone else sign in on this browser: with
 * the member's id in the key, they never read the one before's.
 */
function memberKey(name: string, client: QueryClient): string | undefined {
  const id = client.getQueryData<{ user: { id: string } | null }>(sessionQueryKey)?.user?.id
  return id ? `${name}:${id}` : undefined
}

/**
 * A query function for a member's own data that their pages show offline as it last was (My
 * Account's plan, cards and prices, the billing history). Each answer is kept on the device under
 * the member's key. When the network is gone and the query holds nothing yet, the kept copy
 * becomes its data, dated when it was fetched (`dataUpdatedAt`), so the page can say how old it
 * is; the query still fails with an {@link OfflineError}, so the page knows it is not the
 * server's word now, and it is asked again when the network is back. With no copy only the
 * error remains: the page says what it cannot show, rather than load for ever.
 * Use with {@link memberCopyQuery}.
 */
export function keptForMember<T>(name: string, load: () => Promise<T>): QueryFunction<T> {
  return async ({ client, queryKey }) => {
    const key = memberKey(name, client)
    try {
      const value = await load()
      if (key) remember(key, value)
      return value
    } catch (error) {
      if (!isNetworkFailure(error)) throw error
      const copy = key ? recallEntry<T>(key) : undefined
      if (copy && client.getQueryData(queryKey) === undefined) {
        client.setQueryData(queryKey, copy.value, { updatedAt: copy.savedAt })
      }
      throw new OfflineError({ cause: error })
    }
  }
}

/**
 * Sets a kept query's data from an answer that did not come through its query function (a
 * mutation answers with the whole new state), and keeps it on the device too: otherwise the
 * copy stays the one from before the change, and offline a reload shows the change undone.
 */
export function setKeptForMember<T>(
  client: QueryClient,
  name: string,
  queryKey: readonly unknown[],
  value: T,
): void {
  client.setQueryData(queryKey, value)
  const key = memberKey(name, client)
  if (key) remember(key, value)
}

/**
 * Query settings for {@link keptForMember}: run while the browser is offline (offlineFirstQuery),
 * and asked again as soon as the network is back, however fresh the copy's date, since it is not
 * the server's word until then.
 */
export const memberCopyQuery = { ...offlineFirstQuery, refetchOnReconnect: 'always' } as const
