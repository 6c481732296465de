import { AsyncLocalStorage } from 'node:async_hooks'
import { randomInt } from 'node:crypto'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import {
  sandboxIdempotencyKeys,
  sandboxObjects,
  sandboxSequences,
} from '../../../db/schema/billing'
import { GatewayError, type RequestOptions } from '../gateway'

// The sandbox gateway's store: the provider's objects as JSON rows, with its idempotency keys
// and gap-free counters. Everything the sandbox keeps goes through here.

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A new id in the provider's style: `price_` and 24 random letters and digits. */
export function sandboxId(prefix: string): string {
  let tail = ''
  for (let index = 0; index < 24; index++) tail += ID_ALPHABET[randomInt(ID_ALPHABET.length)]
  return `${prefix}_${tail}`
}

export const nowSeconds = () => Math.floor(Date.now() / 1000)

/**
 * When a new object is stored: never the same moment twice in this process, so lists come out
 * newest first even for objects made within one millisecond (PGlite's clock has no finer
 * grain, and the contract suite saw two prices swap places once).
 */
let lastStored = 0
function storedAt(): Date {
  lastStored = Math.max(Date.now(), lastStored + 1)
  return new Date(lastStored)
}

/** The customer an object belongs to, kept beside its JSON so a customer's objects are found fast. */
const ownerOf = (object: object): string | null => {
  const customer = (object as { customer?: unknown }).customer
  return typeof customer === 'string' ? customer : null
}

export const missing = (what: string, id: string) =>
  new GatewayError('resource_missing', `No such ${what}: '${id}'`)

export type SandboxStore = ReturnType<typeof sandboxStore>

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

/** The transaction of an `atomically` running now, and what waits for it to commit. */
interface Unit {
  tx: Transaction
  afterCommit: (() => Promise<void>)[]
}

export function sandboxStore(db: Database) {
  const units = new AsyncLocalStorage<Unit>()
  /** Inside `atomically`, its transaction (a change's own becomes a savepoint of it). */
  const handle = (): Database => units.getStore()?.tx ?? db

  async function retrieve<T>(id: string, type: string): Promise<T | null> {
    const [row] = await handle()
      .select({ data: sandboxObjects.data })
      .from(sandboxObjects)
      .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.type, type)))
    return (row?.data as T | undefined) ?? null
  }

  return {
    retrieve,

    /**
     * Runs `work` as one change: what it writes is seen by others all at once, as one call to
     * the provider changes its objects (a charge settled together with the invoice it pays and
     * the plan that invoice renews). What it tells outside (events, the bank, the clock) waits
     * for the commit, and the database is not held while it is told.
     */
    async atomically<T>(work: () => Promise<T>): Promise<T> {
      if (units.getStore()) return work()
      const afterCommit: Unit['afterCommit'] = []
      const result = await db.transaction((tx) => units.run({ tx, afterCommit }, work))
      // Each is told even when one before it failed (a bank's job still goes out when an event
      // could not be delivered); the first failure is then raised, for a job to try again.
      const failures: unknown[] = []
      for (const tell of afterCommit) await tell().catch((error: unknown) => failures.push(error))
      if (failures.length > 0) throw failures[0]
      return result
    },

    /** Runs `tell` now, or once the `atomically` running now has committed. */
    async afterCommit(tell: () => Promise<void>): Promise<void> {
      const unit = units.getStore()
      if (unit) unit.afterCommit.push(tell)
      else await tell()
    },

    /**
     * Stores a new object. With an idempotency key, a second call (a retry, or a second server
     * doing the same at the same moment) gets the object the first one made: the key's row is
     * claimed in the same transaction, so the second waits for the first to commit, then reads
     * it. `make` runs inside that transaction, after the key is claimed, so a counter it takes
     * is used once.
     */
    async create<T extends { id: string }>(
      type: string,
      id: string,
      make: (next: (sequence: string) => Promise<number>) => T | Promise<T>,
      { idempotencyKey }: RequestOptions = {},
    ): Promise<T> {
      return handle().transaction(async (tx) => {
        if (idempotencyKey) {
          const [claimed] = await tx
            .insert(sandboxIdempotencyKeys)
            .values({ key: idempotencyKey, objectId: id })
            .onConflictDoNothing()
            .returning({ objectId: sandboxIdempotencyKeys.objectId })
          if (!claimed) {
            const [first] = await tx
              .select({ objectId: sandboxIdempotencyKeys.objectId })
              .from(sandboxIdempotencyKeys)
              .where(eq(sandboxIdempotencyKeys.key, idempotencyKey))
            const existing = first ? await retrieve<T>(first.objectId, type) : null
            if (!existing)
              throw new Error(`idempotency key ${idempotencyKey} was used for another call`)
            return existing
          }
        }
        const object = await make(async (sequence) => {
          const [row] = await tx
            .insert(sandboxSequences)
            .values({ name: sequence, value: 1 })
            .onConflictDoUpdate({
              target: sandboxSequences.name,
              set: { value: sql`${sandboxSequences.value} + 1` },
            })
            .returning({ value: sandboxSequences.value })
          if (!row) throw new Error(`sequence ${sequence} gave no value`)
          return row.value
        })
        await tx.insert(sandboxObjects).values({
          id: object.id,
          type,
          customer: ownerOf(object),
          data: object,
          createdAt: storedAt(),
        })
        return object
      })
    },

    /** Changes an object's JSON under a row lock, so two changes at once never lose one. */
    async change<T extends object>(
      id: string,
      type: string,
      edit: (current: T) => T,
    ): Promise<T | null> {
      return handle().transaction(async (tx) => {
        const [row] = await tx
          .select({ data: sandboxObjects.data })
          .from(sandboxObjects)
          .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.type, type)))
          .for('update')
        if (!row) return null
        const next = edit(row.data as T)
        await tx
          .update(sandboxObjects)
          .set({ data: next, customer: ownerOf(next) })
          .where(eq(sandboxObjects.id, id))
        return next
      })
    },

    /** A customer's objects of one type, newest first. */
    async listOf<T>(type: string, customer: string): Promise<T[]> {
      const rows = await handle()
        .select({ data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(and(eq(sandboxObjects.type, type), eq(sandboxObjects.customer, customer)))
        .orderBy(desc(sandboxObjects.createdAt), desc(sandboxObjects.id))
      return rows.map((row) => row.data as T)
    },

    /** Every object of a type, newest first (prices of a product; live plans at start-up). */
    async listAll<T>(type: string, where?: ReturnType<typeof sql>): Promise<T[]> {
      const rows = await handle()
        .select({ data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(and(eq(sandboxObjects.type, type), where))
        .orderBy(desc(sandboxObjects.createdAt), desc(sandboxObjects.id))
      return rows.map((row) => row.data as T)
    },

    /** Sets one field of an object's JSON without reading it first. */
    async setField<T>(id: string, type: string, field: string, value: unknown): Promise<T | null> {
      const [row] = await handle()
        .update(sandboxObjects)
        .set({
          data: sql`jsonb_set(${sandboxObjects.data}, ${`{${field}}`}::text[], ${JSON.stringify(value)}::jsonb)`,
        })
        .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.type, type)))
        .returning({ data: sandboxObjects.data })
      return (row?.data as T | undefined) ?? null
    },
  }
}

/** `sandbox_object.data` in SQL, for `listAll`'s condition. */
export const sandboxData = sandboxObjects.data
