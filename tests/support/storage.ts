import type { Storage, StoredObjectReader } from '../../server/storage/storage'

/** Opens `key` for reading, failing the test when it is not there. */
export async function openStored(storage: Storage, key: string): Promise<StoredObjectReader> {
  const reader = await storage.open(key)
  if (!reader) throw new Error(`${key} is missing`)
  return reader
}
