import { randomInt } from 'node:crypto'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { sandboxIdempotencyKeys, sandboxObjects } from '../../db/schema/billing'
import type { GatewayPrice, GatewayProduct, PaymentGateway, RequestOptions } from './payments'

// The sandbox gateway: the card provider played in our own database, so every money path runs
// on one machine with no keys. It answers in the provider's shapes and keeps its rules (ids with
// type prefixes, idempotency keys, prices that cannot be edited), and it keeps its objects in
// `sandbox_object`, apart from our billing tables, which it reaches only through the sync.

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A new id in the provider's style: `price_` and 24 random letters and digits. */
export function sandboxId(prefix: string): string {
  let tail = ''
  for (let index = 0; index < 24; index++) tail += ID_ALPHABET[randomInt(ID_ALPHABET.length)]
  return `${prefix}_${tail}`
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

export function createSandboxGateway(db: Database): PaymentGateway {
  async function retrieve<T>(id: string, type: string): Promise<T | null> {
    const [row] = await db
      .select({ data: sandboxObjects.data })
      .from(sandboxObjects)
      .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.type, type)))
    return (row?.data as T | undefined) ?? null
  }

  /**
   * Stores a new object. With an idempotency key, a second call (a retry, or a second server
   * doing the same at the same moment) gets the object the first one made: the key's row is
   * claimed in the same transaction, so the second waits for the first to commit, then reads it.
   */
  async function create<T extends { id: string }>(
    type: string,
    object: T,
    { customer = null, idempotencyKey }: { customer?: string | null } & RequestOptions = {},
  ): Promise<T> {
    return db.transaction(async (tx) => {
      if (idempotencyKey) {
        const [claimed] = await tx
          .insert(sandboxIdempotencyKeys)
          .values({ key: idempotencyKey, objectId: object.id })
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
      await tx.insert(sandboxObjects).values({ id: object.id, type, customer, data: object })
      return object
    })
  }

  return {
    kind: 'sandbox',

    retrieveProduct: (id) => retrieve<GatewayProduct>(id, 'product'),

    createProduct: ({ id, name }, options) =>
      create<GatewayProduct>(
        'product',
        { id, object: 'product', name, active: true, created: nowSeconds() },
        options,
      ),

    createPrice: ({ product, nickname, unitAmount, currency, plan }, options) => {
      const recurring =
        plan === 'one_payment' ? null : { interval: 'month' as const, interval_count: 1 }
      return create<GatewayPrice>(
        'price',
        {
          id: sandboxId('price'),
          object: 'price',
          product,
          nickname,
          unit_amount: unitAmount,
          currency,
          active: true,
          created: nowSeconds(),
          type: recurring ? 'recurring' : 'one_time',
          recurring,
          metadata: { plan },
        },
        options,
      )
    },

    async updatePrice(id, { active }) {
      const [row] = await db
        .update(sandboxObjects)
        .set({
          data: sql`jsonb_set(${sandboxObjects.data}, '{active}', ${JSON.stringify(active)}::jsonb)`,
        })
        .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.type, 'price')))
        .returning({ data: sandboxObjects.data })
      return (row?.data as GatewayPrice | undefined) ?? null
    },

    async listPrices(product) {
      const rows = await db
        .select({ data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(
          and(
            eq(sandboxObjects.type, 'price'),
            sql`${sandboxObjects.data}->>'product' = ${product}`,
          ),
        )
        .orderBy(desc(sandboxObjects.createdAt), desc(sandboxObjects.id))
      return rows.map((row) => row.data as GatewayPrice)
    },
  }
}
