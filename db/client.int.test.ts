import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnvironment, type TestEnvironment } from '../tests/support/test-app'
import { type DatabaseHandle, openDatabase } from './client'
import { appMeta } from './schema/meta'

// Ambient transactions on a real database (PGlite, or PostgreSQL when TEST_DATABASE_URL is set).

let environment: TestEnvironment
let handle: DatabaseHandle
let counter = 0

beforeAll(async () => {
  environment = await createTestEnvironment()
  handle = await openDatabase(environment.config.database)
  await handle.prepare()
})

afterAll(async () => {
  await handle?.close()
  await environment?.destroy()
})

const newKey = () => `client-test-${++counter}-${Date.now()}`
const storedValue = async (key: string) =>
  (await handle.db.select().from(appMeta).where(eq(appMeta.key, key)))[0]?.value

describe('ambient transactions', () => {
  it('route every use of db inside one to it, so a rollback takes all of it back', async () => {
    const key = newKey()
    await expect(
      handle.db.transaction(async () => {
        await handle.db.insert(appMeta).values({ key, value: 'inside' })
        // Seen through the same transaction, from code that was handed the plain db.
        expect(await storedValue(key)).toBe('inside')
        const { rows } = await handle.executeSql('select value from app_meta where key = $1', [key])
        expect(rows).toHaveLength(1)
        throw new Error('undo')
      }),
    ).rejects.toThrow('undo')
    expect(await storedValue(key)).toBeUndefined()
  })

  it('let nested transactions roll back alone', async () => {
    const outerKey = newKey()
    const innerKey = newKey()
    await handle.db.transaction(async () => {
      await handle.db.insert(appMeta).values({ key: outerKey, value: 'kept' })
      await expect(
        handle.db.transaction(async () => {
          await handle.db.insert(appMeta).values({ key: innerKey, value: 'dropped' })
          throw new Error('inner fails')
        }),
      ).rejects.toThrow('inner fails')
    })
    expect(await storedValue(outerKey)).toBe('kept')
    expect(await storedValue(innerKey)).toBeUndefined()
  })

  it('send work left running after the transaction ended to the database', async () => {
    const key = newKey()
    let late: Promise<unknown> | undefined
    let release = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    await handle.db.transaction(async () => {
      // Started inside, not awaited: it runs after the transaction is over.
      late = gate.then(() => handle.db.insert(appMeta).values({ key, value: 'late' }))
    })
    release()
    await late
    expect(await storedValue(key)).toBe('late')
  })

  it('run after-commit callbacks once the outermost commit is done, not for rolled-back parts', async () => {
    const ran: string[] = []
    const key = newKey()
    await handle.db.transaction(async () => {
      handle.afterCommit(() => ran.push('outer'))
      await expect(
        handle.db.transaction(async () => {
          handle.afterCommit(() => ran.push('rolled back'))
          throw new Error('inner fails')
        }),
      ).rejects.toThrow()
      await handle.db.transaction(async () => {
        handle.afterCommit(() => {
          throw new Error('a failing callback')
        })
        handle.afterCommit(() => ran.push('inner'))
      })
      await handle.db.insert(appMeta).values({ key, value: 'x' })
      expect(ran).toEqual([])
    })
    expect(ran).toEqual(['outer', 'inner'])
    const failed = await handle.db
      .transaction(async () => {
        handle.afterCommit(() => ran.push('never'))
        throw new Error('all undone')
      })
      .catch((error: Error) => error.message)
    expect(failed).toBe('all undone')
    expect(ran).toEqual(['outer', 'inner'])
  })
})

describe('raw SQL', () => {
  it('gives the rows of every statement of a block, in order, as the job queue expects', async () => {
    const { rows } = await handle.executeSql(
      "select 'first' as said; select 'second' as said, 2 as n",
    )
    expect(rows).toEqual([{ said: 'first' }, { said: 'second', n: 2 }])
  })

  it('leaves the database usable after a block that fails inside its own transaction', async () => {
    await expect(handle.executeSql('begin; select 1; select 1 / 0; commit')).rejects.toThrow(
      /division by zero/,
    )
    const { rows } = await handle.executeSql('select 1 as one')
    expect(rows).toEqual([{ one: 1 }])
    const key = newKey()
    await handle.db.insert(appMeta).values({ key, value: 'after' })
    expect(await storedValue(key)).toBe('after')
  })

  it('refuses a block of statements inside a transaction, which its own COMMIT would end early', async () => {
    const key = newKey()
    await expect(
      handle.db.transaction(async () => {
        await handle.db.insert(appMeta).values({ key, value: 'inside' })
        await handle.executeSql('begin; select 1; commit')
      }),
    ).rejects.toThrow('Several statements in one text cannot run inside a transaction')
    expect(await storedValue(key)).toBeUndefined()
  })
})
