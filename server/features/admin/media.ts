import type { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import type { OperatorMedia } from '../../../domain/harmonize'
import { AppError } from '../../errors'
import { addMedia, listMedia, removeMedia } from '../harmonize/public'
import { type Actor, writeAudit } from './audit'

// The console's media: what the CLI's `media add / list / remove` do, from a page. An upload
// arrives in parts (./media-uploads.ts) and is streamed from them to storage as one file.

export async function uploadMedia(
  app: FastifyInstance,
  actor: Actor,
  input: { name: string; panelId: string | null; backing: boolean; body: Readable },
): Promise<OperatorMedia> {
  return addMedia(
    app.db,
    app.storage,
    { name: input.name, data: input.body, panelId: input.panelId, backing: input.backing },
    {
      recorded: (media) =>
        writeAudit(app.db, actor, {
          action: 'media.add',
          after: { key: media.key, kind: media.kind, panel: media.panelId, size: media.size },
        }),
    },
  )
}

export const consoleMedia = (app: FastifyInstance) => listMedia(app.db)

export async function consoleRemoveMedia(
  app: FastifyInstance,
  actor: Actor,
  key: string,
): Promise<void> {
  const removed = await removeMedia(app.db, app.storage, key, (media) =>
    writeAudit(app.db, actor, {
      action: 'media.remove',
      before: { key: media.key, kind: media.kind, panel: media.panelId, size: media.size },
    }),
  )
  if (!removed) throw new AppError(404, 'media.notFound')
}
