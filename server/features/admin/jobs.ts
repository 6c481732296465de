import type { FastifyInstance } from 'fastify'
import { AppError } from '../../errors'
import { type Actor, writeAudit } from './audit'

/**
 * Runs a job that gave up once more, and logs who did it, in one transaction: the job is back in
 * its queue and logged, or neither. A job already retried (by another operator a moment ago)
 * is not run twice.
 */
export async function retryFailedJob(
  app: FastifyInstance,
  actor: Actor,
  id: string,
): Promise<void> {
  const job = await app.jobs.failedJob(id)
  if (!job) throw new AppError(404, 'jobs.notFound')
  await app.db.transaction(async () => {
    if (!(await app.jobs.retry(id))) throw new AppError(404, 'jobs.notFound')
    await writeAudit(app.db, actor, {
      action: 'jobs.retry',
      before: { queue: job.queue, about: job.about, error: job.error },
    })
  })
}
