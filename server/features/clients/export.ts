import type { FastifyInstance } from 'fastify'
import { clientScanHistory } from './scans'
import { CLIENT_PHOTO_CONTENT_TYPE, clientPhotoKey, getClient } from './service'

/** What a client's export holds: everything kept about them, the photo included. */
export interface ClientExport {
  format: 'harmonize-client/1'
  exportedAt: string
  client: Omit<Awaited<ReturnType<typeof getClient>>, 'photo'>
  photo: { contentType: string; base64: string } | null
  scans: Awaited<ReturnType<typeof clientScanHistory>>
}

/**
 * One JSON file with all a practitioner keeps about a client (their details, consent, photo and
 * scans), so it can be handed to the client or kept elsewhere before a deletion.
 */
export async function exportClient(
  app: FastifyInstance,
  userId: string,
  clientId: string,
): Promise<{ fileName: string; body: ClientExport }> {
  const { photo, ...client } = await getClient(app.db, userId, clientId)
  const stored = photo ? await app.storage.get(clientPhotoKey(userId, photo.number)) : null
  const scans = await clientScanHistory(app.db, userId, clientId)
  const slug = `${client.firstName}-${client.lastName}`
    .normalize('NFKD')
    .replace(/\s+/g, '-')
    .replace(/[^\w-]+/g, '')
    .replace(/-{2,}/g, '-')
    .toLowerCase()
  return {
    fileName: `harmonize-client-${slug || client.id}.json`,
    body: {
      format: 'harmonize-client/1',
      exportedAt: new Date().toISOString(),
      client,
      photo: stored
        ? {
            contentType: stored.contentType || CLIENT_PHOTO_CONTENT_TYPE,
            base64: stored.data.toString('base64'),
          }
        : null,
      scans,
    },
  }
}
