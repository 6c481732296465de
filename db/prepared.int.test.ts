import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnvironment, type TestEnvironment } from '../tests/support/test-app'
import { type DatabaseHandle, migrationsFolder, openDatabase } from './client'
import { preparedFingerprint } from './prepared'
import { appMeta } from './schema/meta'
import { panels } from './schema/panels'

// Preparing a database (migrations, then the seed) is skipped when this code already did it,
// which is what makes a restart quick; these tests show it still runs whenever it must.

let environment: TestEnvironment
let handle: DatabaseHandle

beforeAll(async () => {
  environment = await createTestEnvironment()
  handle = await openDatabase(environment.config.database)
})

afterAll(async () => {
  await handle?.close()
  await environment?.destroy()
})

const panelName = async () =>
  (await handle.db.select({ name: panels.name }).from(panels).where(eq(panels.id, '01')))[0]?.name
const editPanelName = () =>
  handle.db
    .update(panels)
    .set({ name: { en: 'Edited', es: 'Editado' } })
    .where(eq(panels.id, '01'))
/** A panel the seed would put back, and the mark of a release with other migrations or seed. */
const preparedByAnOlderRelease = async () => {
  await editPanelName()
  await handle.db
    .update(appMeta)
    .set({ value: { fingerprint: 'an older release' } })
    .where(eq(appMeta.key, 'prepared'))
}
const storedMark = async () =>
  (await handle.db.select().from(appMeta).where(eq(appMeta.key, 'prepared')))[0]?.value

describe('preparing the database', () => {
  it('runs nothing again on a database this code already prepared', async () => {
    await handle.prepare()
    const original = await panelName()
    await editPanelName()

    expect(await handle.prepare()).toEqual({ changed: 0, upToDate: true })
    // The seed did not run: it would have put the name back.
    expect(await panelName()).toEqual({ en: 'Edited', es: 'Editado' })

    // Restore for the next test.
    await handle.db.update(panels).set({ name: original }).where(eq(panels.id, '01'))
  })

  it('migrates and seeds again when the database was prepared by other code', async () => {
    await handle.prepare()
    const original = await panelName()
    await preparedByAnOlderRelease()

    expect(await handle.prepare()).toEqual({ changed: 1, upToDate: false })
    expect(await panelName()).toEqual(original)
    expect(await storedMark()).toEqual({ fingerprint: preparedFingerprint(migrationsFolder) })
  })

  it('leaves no mark when preparing fails half-way, so the next start prepares in full', async () => {
    await handle.prepare()
    const original = await panelName()
    await preparedByAnOlderRelease()
    // The seed's update of the edited panel is refused, as a failing deploy would be.
    await handle.executeSql(
      'alter table panel add constraint refuse_updates check (false) not valid',
    )
    try {
      await expect(handle.prepare()).rejects.toThrow()
      // Neither the old release's mark nor a new one: nothing says this database is prepared.
      expect(await storedMark()).toBeUndefined()
    } finally {
      await handle.executeSql('alter table panel drop constraint refuse_updates')
    }

    expect(await handle.prepare()).toEqual({ changed: 1, upToDate: false })
    expect(await panelName()).toEqual(original)
    expect(await storedMark()).toEqual({ fingerprint: preparedFingerprint(migrationsFolder) })
  })

  it('changes its fingerprint when a migration is added', () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'harmonize-migrations-'))
    try {
      cpSync(migrationsFolder, copy, { recursive: true })
      const journalFile = path.join(copy, 'meta/_journal.json')
      const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
        entries: { idx: number; when: number; tag: string; breakpoints: boolean }[]
      }
      const last = journal.entries.at(-1)
      if (!last) throw new Error('The journal lists no migration')
      journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: '9999_extra' })
      writeFileSync(journalFile, JSON.stringify(journal))
      writeFileSync(path.join(copy, '9999_extra.sql'), 'select 1;')

      expect(preparedFingerprint(copy)).not.toBe(preparedFingerprint(migrationsFolder))
      expect(preparedFingerprint(migrationsFolder)).toBe(preparedFingerprint(migrationsFolder))
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  })
})
