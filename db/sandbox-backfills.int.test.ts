import { readFileSync } from 'node:fs'
import path from 'node:path'
import { inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnvironment, type TestEnvironment } from '../tests/support/test-app'
import { type DatabaseHandle, migrationsFolder, openDatabase } from './client'
import { sandboxObjects } from './schema/billing'

// Migrations that rewrite the sandbox's stored objects into a newer shape. A database that ran
// an older release holds objects in the old shape; each backfill is run here on such rows, as it
// runs once on a database being upgraded, and what the sandbox then reads is checked.

let environment: TestEnvironment
let handle: DatabaseHandle

beforeAll(async () => {
  environment = await createTestEnvironment()
  handle = await openDatabase(environment.config.database)
  await handle.prepare()
})

afterAll(async () => {
  await handle?.close()
  await environment?.destroy()
})

async function runMigration(tag: string) {
  const text = readFileSync(path.join(migrationsFolder, `${tag}.sql`), 'utf8')
  for (const statement of text.split('--> statement-breakpoint')) {
    if (statement.trim()) await handle.executeSql(statement)
  }
}

const stored = async (ids: string[]) => {
  const rows = await handle.db
    .select({ id: sandboxObjects.id, data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(inArray(sandboxObjects.id, ids))
  return new Map(rows.map((row) => [row.id, row.data as Record<string, unknown>]))
}

describe('sandbox backfills', () => {
  it('0009 lists on each older invoice the charges that tried to pay it, oldest first', async () => {
    await handle.db.insert(sandboxObjects).values([
      {
        id: 'in_backfill09',
        type: 'invoice',
        customer: 'cus_backfill09',
        data: { id: 'in_backfill09', payment_intent: 'pi_backfill09b' },
      },
      {
        id: 'pi_backfill09a',
        type: 'payment_intent',
        customer: 'cus_backfill09',
        data: { id: 'pi_backfill09a', metadata: { invoice: 'in_backfill09' } },
        createdAt: new Date('2026-01-01T00:00:00Z'),
      },
      {
        id: 'pi_backfill09b',
        type: 'payment_intent',
        customer: 'cus_backfill09',
        data: { id: 'pi_backfill09b', metadata: {} },
        createdAt: new Date('2026-01-02T00:00:00Z'),
      },
      {
        id: 'in_backfill09none',
        type: 'invoice',
        customer: 'cus_backfill09',
        data: { id: 'in_backfill09none', payment_intent: null },
      },
    ])
    await runMigration('0009_sandbox_invoice_payments')
    const objects = await stored(['in_backfill09', 'in_backfill09none'])
    expect(objects.get('in_backfill09')?.payment_intents).toEqual([
      'pi_backfill09a',
      'pi_backfill09b',
    ])
    expect(objects.get('in_backfill09none')?.payment_intents).toEqual([])
  })

  it('0011 keeps a pause of collection as the paused status, and drops the old field', async () => {
    const subscription = (id: string, status: string, pause: unknown) => ({
      id,
      type: 'subscription',
      customer: 'cus_backfill11',
      data: { id, status, pause_collection: pause },
    })
    await handle.db
      .insert(sandboxObjects)
      .values([
        subscription('sub_backfill11paused', 'active', { behavior: 'void', resumes_at: null }),
        subscription('sub_backfill11active', 'active', null),
        subscription('sub_backfill11ended', 'canceled', { behavior: 'void', resumes_at: null }),
      ])
    await runMigration('0011_sandbox_paused_status')
    const objects = await stored([
      'sub_backfill11paused',
      'sub_backfill11active',
      'sub_backfill11ended',
    ])
    expect(objects.get('sub_backfill11paused')).toEqual({
      id: 'sub_backfill11paused',
      status: 'paused',
    })
    expect(objects.get('sub_backfill11active')).toEqual({
      id: 'sub_backfill11active',
      status: 'active',
    })
    expect(objects.get('sub_backfill11ended')).toEqual({
      id: 'sub_backfill11ended',
      status: 'canceled',
    })
  })
})
