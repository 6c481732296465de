import { randomInt } from 'node:crypto'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { sandboxIdempotencyKeys, sandboxObjects } from '../../db/schema/billing'
import { cardBrand, cardDigits } from '../../domain/billing'
import {
  type GatewayCustomer,
  GatewayError,
  type GatewayEvent,
  type GatewayPaymentIntent,
  type GatewayPaymentMethod,
  type GatewayPrice,
  type GatewayProduct,
  type PaymentGateway,
  type RequestOptions,
} from './payments'

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

/** The customer an object belongs to, kept beside its JSON so a customer's objects are found fast. */
const ownerOf = (object: object): string | null => {
  const customer = (object as { customer?: unknown }).customer
  return typeof customer === 'string' ? customer : null
}

/** How the sandbox's bank answers for a card: when it is saved, and when it is charged. */
interface CardBehaviour {
  funding: GatewayPaymentMethod['card']['funding']
  /** A decline when the card is saved (the provider checks it with the bank then). */
  onSave: DeclineReason | null
  /** A decline when the card is charged. */
  onCharge: DeclineReason | null
}

type DeclineReason =
  | 'generic_decline'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'test_mode_live_card'

/** The provider's English sentences for each decline (the app shows its own translation). */
export const DECLINE_MESSAGES: Record<DeclineReason, string> = {
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  test_mode_live_card:
    'Your card was declined. The sandbox takes test card numbers only, such as 4242 4242 4242 4242.',
}

const ok = (funding: CardBehaviour['funding'] = 'credit'): CardBehaviour => ({
  funding,
  onSave: null,
  onCharge: null,
})

/**
 * The provider's published test cards and what each does. Any other number is refused, as the
 * provider refuses real cards in test mode, so nobody types a real card into a sandbox.
 */
export const SANDBOX_CARDS: Record<string, CardBehaviour> = {
  '4242424242424242': ok(),
  '5555555555554444': ok(),
  '4000056655665556': ok('debit'),
  '4000000000000002': { funding: 'credit', onSave: 'generic_decline', onCharge: 'generic_decline' },
  '4000000000009995': { funding: 'credit', onSave: null, onCharge: 'insufficient_funds' },
  '4000000000000341': { funding: 'credit', onSave: null, onCharge: 'generic_decline' },
  '4000000000000069': { funding: 'credit', onSave: 'expired_card', onCharge: 'expired_card' },
  '4000000000000127': { funding: 'credit', onSave: 'incorrect_cvc', onCharge: 'incorrect_cvc' },
}

const declined = (reason: DeclineReason) =>
  new GatewayError(
    reason === 'expired_card' || reason === 'incorrect_cvc' ? reason : 'card_declined',
    DECLINE_MESSAGES[reason],
    reason === 'expired_card' || reason === 'incorrect_cvc' ? undefined : reason,
  )

/** A stored payment method: the provider's shape plus what the sandbox's bank knows of it. */
type StoredPaymentMethod = GatewayPaymentMethod & { sandbox: CardBehaviour }

const publicMethod = ({ sandbox: _, ...method }: StoredPaymentMethod): GatewayPaymentMethod =>
  method

/** The sandbox's gateway, plus what only the sandbox has: the browser's card form endpoint. */
export interface SandboxGateway extends PaymentGateway {
  kind: 'sandbox'
  /**
   * How a charge reaches the bank: a durable job that calls `settlePaymentIntent` a moment later,
   * as a real provider answers by webhook. Without one (the operator command), charges settle
   * at once.
   */
  connectBank(send: (paymentIntentId: string) => Promise<void>): void
  /** The bank's answer to a `processing` charge; then the event handlers hear of it. */
  settlePaymentIntent(id: string): Promise<void>
  /**
   * Makes a card payment method from the numbers typed in the browser, as the provider's card
   * field does in its own frame. The number itself is never stored: only brand, last four
   * digits, expiry, and which test card it was.
   */
  createCardPaymentMethod(card: {
    number: string
    expMonth: number
    expYear: number
    cvc: string
  }): Promise<GatewayPaymentMethod>
}

export function createSandboxGateway(db: Database): SandboxGateway {
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
    { idempotencyKey }: RequestOptions = {},
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
      await tx
        .insert(sandboxObjects)
        .values({ id: object.id, type, customer: ownerOf(object), data: object })
      return object
    })
  }

  /** Changes an object's JSON under a row lock, so two changes at once never lose one. */
  async function change<T extends object>(
    id: string,
    type: string,
    edit: (current: T) => T,
  ): Promise<T | null> {
    return db.transaction(async (tx) => {
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
  }

  const missing = (what: string, id: string) =>
    new GatewayError('resource_missing', `No such ${what}: '${id}'`)

  const eventHandlers: ((event: GatewayEvent) => Promise<void>)[] = []
  let bank: ((paymentIntentId: string) => Promise<void>) | null = null

  const failure = (reason: DeclineReason) => {
    const error = declined(reason)
    return {
      code: error.code,
      ...(error.declineCode ? { decline_code: error.declineCode } : {}),
      message: error.message,
    }
  }

  async function settle(id: string): Promise<void> {
    const intent = await retrieve<GatewayPaymentIntent>(id, 'payment_intent')
    if (intent?.status !== 'processing' || !intent.payment_method) return
    const method = await retrieve<StoredPaymentMethod>(intent.payment_method, 'payment_method')
    const refusal = method ? method.sandbox.onCharge : 'generic_decline'
    const settled = await change<GatewayPaymentIntent>(id, 'payment_intent', (current) =>
      current.status !== 'processing'
        ? current
        : refusal
          ? { ...current, status: 'requires_payment_method', last_payment_error: failure(refusal) }
          : { ...current, status: 'succeeded', last_payment_error: null },
    )
    if (!settled) return
    const event: GatewayEvent = {
      type:
        settled.status === 'succeeded'
          ? 'payment_intent.succeeded'
          : 'payment_intent.payment_failed',
      customer: settled.customer,
    }
    for (const handler of eventHandlers) await handler(event)
  }

  return {
    kind: 'sandbox',

    async createCardPaymentMethod({ number, expMonth, expYear, cvc: _cvc }) {
      const digits = cardDigits(number)
      const behaviour = SANDBOX_CARDS[digits]
      if (!behaviour) throw declined('test_mode_live_card')
      const method: StoredPaymentMethod = {
        id: sandboxId('pm'),
        object: 'payment_method',
        type: 'card',
        customer: null,
        card: {
          brand: cardBrand(digits),
          last4: digits.slice(-4),
          exp_month: expMonth,
          exp_year: expYear,
          funding: behaviour.funding,
        },
        metadata: {},
        created: nowSeconds(),
        sandbox: behaviour,
      }
      return publicMethod(await create('payment_method', method))
    },

    createCustomer: ({ email, name, userId }, options) =>
      create<GatewayCustomer>(
        'customer',
        {
          id: sandboxId('cus'),
          object: 'customer',
          email,
          name,
          address: null,
          invoice_settings: { default_payment_method: null },
          metadata: { user_id: userId },
          created: nowSeconds(),
        },
        options,
      ),

    retrieveCustomer: (id) => retrieve<GatewayCustomer>(id, 'customer'),

    async updateCustomer(id, { defaultPaymentMethod, ...fields }) {
      if (defaultPaymentMethod) {
        const method = await retrieve<StoredPaymentMethod>(defaultPaymentMethod, 'payment_method')
        if (method?.customer !== id) {
          throw new GatewayError(
            'invalid_request_error',
            `The payment method ${defaultPaymentMethod} does not belong to customer ${id}.`,
          )
        }
      }
      const updated = await change<GatewayCustomer>(id, 'customer', (customer) => ({
        ...customer,
        ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
        invoice_settings:
          defaultPaymentMethod === undefined
            ? customer.invoice_settings
            : { default_payment_method: defaultPaymentMethod },
      }))
      if (!updated) throw missing('customer', id)
      return updated
    },

    async retrievePaymentMethod(id) {
      const method = await retrieve<StoredPaymentMethod>(id, 'payment_method')
      return method ? publicMethod(method) : null
    },

    async attachPaymentMethod(id, { customer, cardType }) {
      if (!(await retrieve<GatewayCustomer>(customer, 'customer')))
        throw missing('customer', customer)
      const method = await retrieve<StoredPaymentMethod>(id, 'payment_method')
      if (!method) throw missing('payment_method', id)
      if (method.customer && method.customer !== customer) {
        throw new GatewayError(
          'payment_method_unexpected_state',
          'This payment method is already attached to another customer.',
        )
      }
      if (method.sandbox.onSave) throw declined(method.sandbox.onSave)
      const attached = await change<StoredPaymentMethod>(id, 'payment_method', (current) => ({
        ...current,
        customer,
        metadata: cardType ? { ...current.metadata, card_type: cardType } : current.metadata,
      }))
      if (!attached) throw missing('payment_method', id)
      return publicMethod(attached)
    },

    async detachPaymentMethod(id) {
      const method = await retrieve<StoredPaymentMethod>(id, 'payment_method')
      if (!method?.customer) {
        throw new GatewayError(
          'payment_method_unexpected_state',
          'The payment method you provided is not attached to a customer.',
        )
      }
      const owner = method.customer
      const detached = await change<StoredPaymentMethod>(id, 'payment_method', (current) => ({
        ...current,
        customer: null,
      }))
      // The provider clears a default that was detached.
      await change<GatewayCustomer>(owner, 'customer', (customer) =>
        customer.invoice_settings.default_payment_method === id
          ? { ...customer, invoice_settings: { default_payment_method: null } }
          : customer,
      )
      if (!detached) throw missing('payment_method', id)
      return publicMethod(detached)
    },

    connectBank(send) {
      bank = send
    },

    settlePaymentIntent: settle,

    onEvent(handler) {
      eventHandlers.push(handler)
    },

    async createPaymentIntent(
      { amount, currency, customer, paymentMethod, receiptEmail, metadata },
      options,
    ) {
      if (!(await retrieve<GatewayCustomer>(customer, 'customer')))
        throw missing('customer', customer)
      const method = await retrieve<StoredPaymentMethod>(paymentMethod, 'payment_method')
      if (!method) throw missing('payment_method', paymentMethod)
      if (method.customer && method.customer !== customer) {
        throw new GatewayError(
          'payment_method_unexpected_state',
          'This payment method is attached to another customer.',
        )
      }
      // A card the bank refuses outright fails now; any other waits for the bank's answer.
      const refusal = method.sandbox.onSave
      const intent = await create<GatewayPaymentIntent>(
        'payment_intent',
        {
          id: sandboxId('pi'),
          object: 'payment_intent',
          amount,
          currency,
          customer,
          payment_method: paymentMethod,
          status: refusal ? 'requires_payment_method' : 'processing',
          receipt_email: receiptEmail,
          last_payment_error: refusal ? failure(refusal) : null,
          metadata,
          created: nowSeconds(),
        },
        options,
      )
      if (intent.status === 'processing') {
        if (bank) await bank(intent.id)
        else await settle(intent.id)
      }
      return intent
    },

    async listPaymentIntents(customer) {
      const rows = await db
        .select({ data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(
          and(eq(sandboxObjects.type, 'payment_intent'), eq(sandboxObjects.customer, customer)),
        )
        .orderBy(desc(sandboxObjects.createdAt), desc(sandboxObjects.id))
      return rows.map((row) => row.data as GatewayPaymentIntent)
    },

    async listPaymentMethods(customer) {
      const rows = await db
        .select({ data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(
          and(eq(sandboxObjects.type, 'payment_method'), eq(sandboxObjects.customer, customer)),
        )
        .orderBy(desc(sandboxObjects.createdAt), desc(sandboxObjects.id))
      return rows.map((row) => publicMethod(row.data as StoredPaymentMethod))
    },

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

/** Whether the configured gateway is the sandbox (which has the browser's card endpoint). */
export function isSandboxGateway(gateway: PaymentGateway): gateway is SandboxGateway {
  return gateway.kind === 'sandbox' && 'createCardPaymentMethod' in gateway
}
