import { and, eq, notInArray } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { users } from '../../../db/schema/auth'
import {
  billingCardTokens,
  billingCustomers,
  billingInvoices,
  billingPaymentIntents,
  billingPaymentMethods,
  billingSubscriptions,
} from '../../../db/schema/billing'
import {
  type BillingAccount,
  type BillingInfoRequest,
  type CardConfirmResponse,
  type CardType,
  type RefusalReason,
  refusalReason,
  type SandboxCardRequest,
  type SandboxCheckRequest,
} from '../../../domain/billing'
import { FOUR_PAYMENTS_INSTALLMENTS } from '../../../domain/billing-plans'
import { AppError } from '../../errors'
import type { MessageKey } from '../../i18n'
import {
  GatewayError,
  type GatewayInvoice,
  type GatewayPaymentIntent,
  type GatewaySetupIntent,
  type GatewaySubscription,
  setupIntentOfSecret,
} from '../../payments/gateway'
import { accessFactsKey, cacheFor, invalidate } from '../../plugins/cache'
import { isCountry, isStateOf } from '../reference/public'
import { type MemberLockOptions, withMemberLock } from './member-lock'
import { hasRunningPlan, invoiceRow, planStatus, subscriptionRow } from './plan-sync'
import { readRefunds, writeRefunds } from './refund-rows'
import type { BillingDeps } from './service'

/** Who is paying: the signed-in user as billing needs them. */
export interface Payer {
  id: string
  name: string
  email: string
}

/**
 * The card provider's refusal, in the user's language (the provider's own words are English),
 * from its code or the bank's decline code.
 */
export function refusalMessage(code: string | null | undefined): MessageKey {
  return REFUSAL_MESSAGES[refusalReason(code)]
}

const REFUSAL_MESSAGES: Record<RefusalReason, MessageKey> = {
  card_declined: 'billing.cardDeclined',
  insufficient_funds: 'billing.insufficientFunds',
  expired_card: 'billing.expiredCard',
  incorrect_cvc: 'billing.incorrectCvc',
  test_mode_live_card: 'billing.testCardsOnly',
  authentication_required: 'billing.authenticationRequired',
  payment_intent_authentication_failure: 'billing.paymentAuthenticationFailed',
}

export const gatewayMessage = (error: GatewayError): MessageKey =>
  refusalMessage(error.declineCode ?? error.code)

/** Runs a gateway call; a card refusal becomes a 402 the user can read, anything else a 5xx. */
async function asUserError<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof GatewayError && error.code !== 'resource_missing') {
      throw new AppError(402, gatewayMessage(error))
    }
    throw error
  }
}

/** The member a customer of the gateway belongs to (it never changes hands). */
async function userOfCustomer({ db, payments }: BillingDeps, customerId: string) {
  const [row] = await db
    .select({ userId: billingCustomers.userId })
    .from(billingCustomers)
    .where(eq(billingCustomers.customerId, customerId))
  if (row) return row.userId
  // Its first sync: the gateway says whose it is.
  return (await payments.retrieveCustomer(customerId))?.metadata.user_id ?? null
}

/**
 * Makes our customer, card, payment, plan and invoice rows say what the gateway says about
 * `customerId`. Safe to repeat and to run twice at once: it reads the gateway and writes what
 * it read holding the member's lease (member-lock.ts), so two syncs take turns and the later
 * one writes the later answer; an older answer never lands over a newer one. An action that
 * holds the lease syncs inside its turn. Every write is an upsert of the gateway's answer, and
 * cards the gateway no longer lists are removed.
 */
export async function syncCustomer(
  deps: BillingDeps,
  customerId: string,
  options?: MemberLockOptions & { at?: Date },
): Promise<void> {
  const userId = await userOfCustomer(deps, customerId)
  if (!userId) return
  await withMemberLock(deps.db, userId, () => writeCustomer(deps, customerId), options)
  await deps.afterSync?.(userId, options?.at)
}

/**
 * ONE PAYMENT bought as an upgrade replaces the plan its invoice names (`ends_subscription`),
 * a link the provider knows nothing of: once the invoice is paid the plan is ended, so it never
 * charges again beside a lifetime payment; if the bank refused it, the invoice is voided and the
 * plan goes on as it was. Done here, in the member's turn, whenever the bank answered: in the
 * upgrade request itself, or on the event of a charge answered later. An invoice never charged
 * at all is one whose upgrade stopped between finalizing and paying it (a crash, a time-out):
 * the upgrade holds the member's turn from its first call to its sync, so a sync that sees it
 * comes after that request ended. It is voided too, so the member is not left with a bill they
 * were told failed, which would also keep Upgrade from being offered. True when it changed
 * anything.
 */
async function settleReplacements(
  payments: BillingDeps['payments'],
  subscriptions: readonly GatewaySubscription[],
  invoices: readonly GatewayInvoice[],
  intents: readonly GatewayPaymentIntent[],
): Promise<boolean> {
  let changed = false
  for (const invoice of invoices) {
    const replaced = invoice.metadata.ends_subscription
    if (!replaced) continue
    const plan = subscriptions.find((subscription) => subscription.id === replaced)
    const running = plan && plan.status !== 'canceled' && plan.status !== 'incomplete_expired'
    if (invoice.status === 'paid' && running) {
      await payments.cancelSubscription(replaced)
      changed = true
    }
    const charge = intents.find((intent) => intent.id === invoice.payment_intent)
    // No try at all (Stripe may already name a payment intent made at finalizing).
    const abandoned = invoice.attempt_count === 0
    // A check at the bank left unanswered while the plan went on to its next month: the credit
    // it was priced with is out of date, so it is not paid any more.
    const stale =
      charge?.status === 'requires_action' &&
      plan !== undefined &&
      plan.current_period_start > invoice.created
    if (
      invoice.status === 'open' &&
      (abandoned || stale || charge?.status === 'requires_payment_method')
    ) {
      await payments.voidInvoice(invoice.id)
      changed = true
    }
  }
  return changed
}

/**
 * A one-time payment whose bank check failed is cancelled: its client secret went to the page
 * for the check, and while the payment can still be confirmed, that secret would let a script
 * try other cards on it at the provider, past our counting of card tries. Its refusal is still
 * shown and counted (the failure stays on it). True when it changed anything.
 */
async function closeFailedChecks(
  payments: BillingDeps['payments'],
  intents: readonly GatewayPaymentIntent[],
): Promise<boolean> {
  let changed = false
  for (const intent of intents) {
    const oneTime = intent.metadata.price_id !== ''
    if (
      oneTime &&
      intent.status === 'requires_payment_method' &&
      intent.last_payment_error?.code === 'payment_intent_authentication_failure'
    ) {
      await payments.cancelPaymentIntent(intent.id, { idempotencyKey: `close-${intent.id}` })
      changed = true
    }
  }
  return changed
}

/**
 * An upgrade to FOUR PAYMENTS is three calls to the provider: the plan moved to the monthly
 * price, a schedule attached, and the schedule given its end. Stopped after the first (a crash,
 * the provider failing), the plan would be charged monthly for good: the upgrade is finished
 * here, under keys made from the plan and its price (the gateway does only the steps not done),
 * whatever became of the member's request. True when it changed anything.
 */
async function settleInstallments(
  payments: BillingDeps['payments'],
  subscriptions: readonly GatewaySubscription[],
): Promise<boolean> {
  let changed = false
  for (const subscription of subscriptions) {
    const price = subscription.items.data[0]?.price
    const ended = subscription.status === 'canceled' || subscription.status === 'incomplete_expired'
    const endless =
      subscription.metadata.plan === 'four_payments' && subscription.cancel_at === null
    if (!endless || ended || !price) continue
    await payments.upgradeSubscription(subscription.id, {
      price,
      installments: FOUR_PAYMENTS_INSTALLMENTS,
    })
    changed = true
  }
  return changed
}

/**
 * The card that has just paid a ONE PAYMENT becomes the member's default. A card typed on the
 * pay page is saved before the charge (and is the default when it is the member's first), so
 * without this a card the bank refused stayed "Default" beside the one that then paid. Only at
 * the moment a payment is first seen paid (the member's turn makes that moment one): a default
 * the member picks afterwards is theirs. The new default, or null when nothing changed.
 */
async function defaultToPayingCard(
  db: Database,
  payments: BillingDeps['payments'],
  customer: { id: string; defaultId: string | null },
  userId: string,
  methods: readonly { id: string }[],
  intents: readonly GatewayPaymentIntent[],
): Promise<string | null> {
  const paid = intents.filter(
    (intent) => intent.metadata.price_id !== '' && intent.status === 'succeeded',
  )
  if (paid.length === 0) return null
  const known = await db
    .select({ id: billingPaymentIntents.id })
    .from(billingPaymentIntents)
    .where(
      and(eq(billingPaymentIntents.userId, userId), eq(billingPaymentIntents.status, 'succeeded')),
    )
  const seenPaid = new Set(known.map(({ id }) => id))
  const [newest] = paid
    .filter((intent) => !seenPaid.has(intent.id))
    .sort((a, b) => b.created - a.created)
  const card = newest?.payment_method
  if (!card || card === customer.defaultId || !methods.some(({ id }) => id === card)) return null
  await payments.updateCustomer(customer.id, { defaultPaymentMethod: card })
  return card
}

async function writeCustomer({ db, payments }: BillingDeps, customerId: string) {
  // Before the first read: what happened at the provider before this moment is in what we read,
  // so an event received earlier needs no sync of its own (webhook.ts).
  const startedAt = new Date()
  const customer = await payments.retrieveCustomer(customerId)
  // A customer made outside the app (in the provider's dashboard) is nobody's here.
  const userId = customer?.metadata.user_id
  if (!customer || !userId) return
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId))
  if (!user) return
  const methods = await payments.listPaymentMethods(customerId)
  let intents = await payments.listPaymentIntents(customerId)
  let subscriptions = await payments.listSubscriptions(customerId)
  let invoices = await payments.listInvoices(customerId)
  const refunds = await readRefunds({ db, payments }, userId, customerId)
  // Failing half-way, the rows are still written from what was read (a paid ONE PAYMENT then
  // blocks a second one at once), and the failure is raised after, for the job to retry.
  let unsettled: unknown = null
  let defaultId = customer.invoice_settings.default_payment_method
  try {
    const replaced = await settleReplacements(payments, subscriptions, invoices, intents)
    if ((await settleInstallments(payments, subscriptions)) || replaced) {
      subscriptions = await payments.listSubscriptions(customerId)
      invoices = await payments.listInvoices(customerId)
    }
    if (await closeFailedChecks(payments, intents)) {
      intents = await payments.listPaymentIntents(customerId)
    }
    defaultId =
      (await defaultToPayingCard(
        db,
        payments,
        { id: customerId, defaultId },
        userId,
        methods,
        intents,
      )) ?? defaultId
  } catch (error) {
    unsettled = error
  }
  const address = customer.address
  const row = {
    userId,
    customerId,
    name: customer.name,
    email: customer.email,
    line1: address?.line1 ?? null,
    line2: address?.line2 ?? null,
    city: address?.city ?? null,
    state: address?.state ?? null,
    postalCode: address?.postal_code ?? null,
    country: address?.country ?? null,
    defaultPaymentMethodId: defaultId,
    syncedAt: startedAt,
  }
  await db.transaction(async (tx) => {
    await tx
      .insert(billingCustomers)
      .values(row)
      .onConflictDoUpdate({ target: billingCustomers.userId, set: row })
    for (const method of methods) {
      const card = {
        id: method.id,
        userId,
        brand: method.card.brand,
        last4: method.card.last4,
        expMonth: method.card.exp_month,
        expYear: method.card.exp_year,
        cardType: method.metadata.card_type ?? null,
        createdAt: new Date(method.created * 1000),
        syncedAt: new Date(),
      }
      await tx
        .insert(billingPaymentMethods)
        .values(card)
        .onConflictDoUpdate({ target: billingPaymentMethods.id, set: card })
    }
    // Charges of plans are told through their invoices; this table is one-time payments
    // (ONE PAYMENT, also when bought as an upgrade from a subscription, whose invoice belongs
    // to no subscription). A charge is a plan's when an invoice of a subscription lists it.
    const planCharges = new Set(
      invoices
        .filter((invoice) => invoice.subscription !== null)
        .flatMap((invoice) => invoice.payment_intents),
    )
    // A charge made for an invoice (ONE PAYMENT bought as an upgrade) carries none of our
    // metadata: what it bought is on the invoice that lists it.
    const invoiceOfCharge = new Map(
      invoices.flatMap((invoice) => invoice.payment_intents.map((id) => [id, invoice] as const)),
    )
    for (const intent of intents.filter((charge) => !planCharges.has(charge.id))) {
      const priceId =
        intent.metadata.price_id ||
        invoiceOfCharge.get(intent.id)?.lines.data.find((line) => line.price)?.price
      // A charge made outside the app (in the provider's dashboard) is not one of our payments.
      if (!priceId) continue
      const payment = {
        id: intent.id,
        userId,
        priceId,
        amount: intent.amount,
        currency: intent.currency,
        status: intent.status,
        failureCode:
          intent.last_payment_error?.decline_code ?? intent.last_payment_error?.code ?? null,
        receiptEmail: intent.receipt_email,
        createdAt: new Date(intent.created * 1000),
        syncedAt: new Date(),
      }
      await tx
        .insert(billingPaymentIntents)
        .values(payment)
        .onConflictDoUpdate({ target: billingPaymentIntents.id, set: payment })
    }
    for (const subscription of subscriptions) {
      const plan = subscriptionRow(
        userId,
        subscription,
        planStatus(subscription, invoices, intents),
      )
      await tx
        .insert(billingSubscriptions)
        .values(plan)
        .onConflictDoUpdate({ target: billingSubscriptions.id, set: plan })
    }
    for (const invoice of invoices) {
      const bill = invoiceRow(userId, invoice, intents)
      await tx
        .insert(billingInvoices)
        .values(bill)
        .onConflictDoUpdate({ target: billingInvoices.id, set: bill })
    }
    await writeRefunds(
      tx,
      userId,
      refunds,
      (paymentIntent) =>
        invoices.find(
          (invoice) =>
            invoice.payment_intent === paymentIntent ||
            invoice.payment_intents.includes(paymentIntent),
        )?.id,
    )
    const kept = methods.map((method) => method.id)
    await tx
      .delete(billingPaymentMethods)
      .where(
        and(
          eq(billingPaymentMethods.userId, userId),
          kept.length > 0 ? notInArray(billingPaymentMethods.id, kept) : undefined,
        ),
      )
  })
  // After the commit: a reader that cached the old facts meanwhile is not believed.
  await invalidate(cacheFor(db), accessFactsKey(userId))
  if (unsettled) throw unsettled
}

/** The user's customer id at the gateway, made on first need (once, even when asked twice). */
export async function customerIdFor(deps: BillingDeps, payer: Payer): Promise<string> {
  const [existing] = await deps.db
    .select({ customerId: billingCustomers.customerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, payer.id))
  if (existing) return existing.customerId
  const customer = await deps.payments.createCustomer(
    { email: payer.email, name: payer.name, userId: payer.id },
    { idempotencyKey: `customer-${payer.id}` },
  )
  await syncCustomer(deps, customer.id)
  return customer.id
}

/** Billing information and saved cards, default first, then newest first. */
export async function billingAccountOf(deps: BillingDeps, userId: string): Promise<BillingAccount> {
  const [customer] = await deps.db
    .select()
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId))
  const cards = await deps.db
    .select()
    .from(billingPaymentMethods)
    .where(eq(billingPaymentMethods.userId, userId))
  const defaultId = customer?.defaultPaymentMethodId ?? null
  return {
    sandbox: deps.payments.kind === 'sandbox',
    publishableKey: deps.payments.publishableKey,
    billingInfo: customer
      ? {
          name: customer.name,
          email: customer.email,
          line1: customer.line1,
          line2: customer.line2,
          city: customer.city,
          state: customer.state,
          postalCode: customer.postalCode,
          country: customer.country,
        }
      : null,
    cards: cards
      .sort(
        (a, b) =>
          Number(b.id === defaultId) - Number(a.id === defaultId) ||
          b.createdAt.getTime() - a.createdAt.getTime(),
      )
      .map((card) => ({
        id: card.id,
        brand: card.brand,
        last4: card.last4,
        expMonth: card.expMonth,
        expYear: card.expYear,
        cardType: card.cardType,
        isDefault: card.id === defaultId,
      })),
  }
}

/**
 * The sandbox's card field: makes a payment method from the typed card, recorded as the
 * member's own (billing_card_token) until it is saved to their customer.
 */
export async function createSandboxCard(
  deps: BillingDeps,
  userId: string,
  card: SandboxCardRequest,
) {
  const field = deps.payments.cardField
  if (!field) throw new AppError(404, 'billing.sandboxOnly')
  const method = await asUserError(() => field.createCardPaymentMethod(card))
  await deps.db.insert(billingCardTokens).values({ paymentMethodId: method.id, userId })
  return { id: method.id, brand: method.card.brand, last4: method.card.last4 }
}

/**
 * The sandbox's card field, for a setup of the member's own (by its secret): anyone else's, or
 * none, reads as not found; in Stripe mode there is no such field.
 */
async function sandboxFieldFor(deps: BillingDeps, payer: Payer, clientSecret: string) {
  const field = deps.payments.cardField
  if (!field) throw new AppError(404, 'billing.sandboxOnly')
  const intent = await deps.payments.retrieveSetupIntent(setupIntentOfSecret(clientSecret))
  const [own] = await deps.db
    .select({ customerId: billingCustomers.customerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, payer.id))
  if (!intent || intent.client_secret !== clientSecret || intent.customer !== own?.customerId) {
    throw new AppError(404, 'billing.cardNotFound')
  }
  return field
}

const confirmAnswer = (intent: GatewaySetupIntent): CardConfirmResponse =>
  intent.status === 'requires_action'
    ? { status: 'requires_action', clientSecret: intent.client_secret }
    : { status: 'succeeded', clientSecret: null }

/**
 * The card the page made (with the sandbox's field or Stripe's) checked by the bank and saved
 * to the member's customer, through a setup confirmed here, on the server: each try of a card
 * is one the app counts (a client secret handed to the page would let it try cards at the
 * provider without end). The bank may refuse the card (402, in the member's words) or ask for
 * its check (3-D Secure), which the page then runs with the secret answered.
 */
export async function confirmCard(
  deps: BillingDeps,
  payer: Payer,
  input: { paymentMethodId: string },
): Promise<CardConfirmResponse> {
  const customerId = await customerIdFor(deps, payer)
  if (deps.payments.cardField) {
    await assertUsableCard(deps, payer.id, customerId, input.paymentMethodId)
  } else {
    // Stripe's field makes the card in the page, unknown to us until now: any card not saved
    // to someone else's customer (its id is known only to the page that made it).
    const method = await deps.payments.retrievePaymentMethod(input.paymentMethodId)
    if (!method || (method.customer !== null && method.customer !== customerId)) {
      throw new AppError(404, 'billing.cardNotFound')
    }
  }
  const intent = await asUserError(() =>
    deps.payments.createSetupIntent({ customer: customerId, paymentMethod: input.paymentMethodId }),
  )
  if (intent.status === 'succeeded')
    await keepADefault(deps, payer.id, customerId, input.paymentMethodId)
  return confirmAnswer(intent)
}

/**
 * The card a setup saved is the member's default when they had none: the page saves it next
 * (its type, and the default if asked), but if that never comes (a closed tab, a refused Pay
 * now) a member with cards still has a default for their plans' charges.
 */
async function keepADefault(
  deps: BillingDeps,
  userId: string,
  customerId: string,
  paymentMethodId: string,
) {
  await withMemberLock(deps.db, userId, async () => {
    const customer = await deps.payments.retrieveCustomer(customerId)
    if (customer && !customer.invoice_settings.default_payment_method) {
      await deps.payments.updateCustomer(customerId, { defaultPaymentMethod: paymentMethodId })
    }
    await syncCustomer(deps, customerId)
  })
}

/** The member's answer on the sandbox bank's check: the card saved, or refused in their words. */
export async function answerSandboxCheck(
  deps: BillingDeps,
  payer: Payer,
  input: SandboxCheckRequest,
): Promise<CardConfirmResponse> {
  const field = await sandboxFieldFor(deps, payer, input.clientSecret)
  const intent = await asUserError(() => field.authenticateCardSetup(input))
  if (intent.last_setup_error?.code === 'setup_intent_authentication_failure') {
    throw new AppError(402, 'billing.authenticationFailed')
  }
  if (intent.status === 'succeeded' && intent.payment_method) {
    await keepADefault(deps, payer.id, intent.customer, intent.payment_method)
  }
  return confirmAnswer(intent)
}

/**
 * A card the member may pay with or save: one already saved to their customer, or one they
 * typed into the card field themselves and nobody has saved. Anyone else's card, a card made by
 * another member that is not saved yet (its id is all it takes to use it at the gateway), and
 * an id that does not exist all read the same: 404.
 */
export async function assertUsableCard(
  deps: BillingDeps,
  userId: string,
  customerId: string,
  paymentMethodId: string,
): Promise<void> {
  const method = await deps.payments.retrievePaymentMethod(paymentMethodId)
  if (method?.customer === customerId) return
  if (method && method.customer === null) {
    const [typed] = await deps.db
      .select({ id: billingCardTokens.paymentMethodId })
      .from(billingCardTokens)
      .where(
        and(
          eq(billingCardTokens.paymentMethodId, paymentMethodId),
          eq(billingCardTokens.userId, userId),
        ),
      )
    if (typed) return
  }
  throw new AppError(404, 'billing.cardNotFound')
}

/**
 * Saves a card made by the card field to the user's account. The bank checks it now, so a
 * declined card is refused here. The first card becomes the default, and so does one added
 * with `makeDefault` (to pay a failed invoice). In the member's turn (member-lock.ts), since
 * the default card is what plans are charged to.
 */
export async function addCard(
  deps: BillingDeps,
  payer: Payer,
  input: { paymentMethodId: string; cardType: CardType; makeDefault?: boolean },
): Promise<BillingAccount> {
  await withMemberLock(deps.db, payer.id, async () => {
    const customerId = await customerIdFor(deps, payer)
    await assertUsableCard(deps, payer.id, customerId, input.paymentMethodId)
    await asUserError(() =>
      deps.payments.attachPaymentMethod(input.paymentMethodId, {
        customer: customerId,
        cardType: input.cardType,
      }),
    )
    const customer = await deps.payments.retrieveCustomer(customerId)
    if (input.makeDefault || !customer?.invoice_settings.default_payment_method) {
      await deps.payments.updateCustomer(customerId, {
        defaultPaymentMethod: input.paymentMethodId,
      })
    }
    await syncCustomer(deps, customerId)
  })
  return billingAccountOf(deps, payer.id)
}

/** The user's own saved card, or 404 (another user's card reads as missing). */
async function ownCard(db: Database, userId: string, cardId: string) {
  const [card] = await db
    .select({ id: billingPaymentMethods.id })
    .from(billingPaymentMethods)
    .where(and(eq(billingPaymentMethods.id, cardId), eq(billingPaymentMethods.userId, userId)))
  const [customer] = await db
    .select({ customerId: billingCustomers.customerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId))
  if (!card || !customer) throw new AppError(404, 'billing.cardNotFound')
  return { cardId: card.id, customerId: customer.customerId }
}

/** Makes one of the user's cards the one charged for plans and invoices (in the member's turn). */
export async function setDefaultCard(
  deps: BillingDeps,
  userId: string,
  cardId: string,
): Promise<BillingAccount> {
  await withMemberLock(deps.db, userId, async () => {
    const { customerId } = await ownCard(deps.db, userId, cardId)
    await deps.payments.updateCustomer(customerId, { defaultPaymentMethod: cardId })
    await syncCustomer(deps, customerId)
  })
  return billingAccountOf(deps, userId)
}

/**
 * Removes a saved card. When it was the default, the newest remaining card takes its place, so
 * an account with cards always has a default. In the member's turn, so a plan started at the
 * same moment still finds a card to charge.
 */
export async function removeCard(
  deps: BillingDeps,
  userId: string,
  cardId: string,
): Promise<BillingAccount> {
  await withMemberLock(deps.db, userId, async () => {
    const { customerId } = await ownCard(deps.db, userId, cardId)
    const cards = await deps.db
      .select({ id: billingPaymentMethods.id })
      .from(billingPaymentMethods)
      .where(eq(billingPaymentMethods.userId, userId))
    if (cards.length === 1 && (await hasRunningPlan(deps.db, userId))) {
      throw new AppError(409, 'billing.onlyCardOfPlan')
    }
    await deps.payments.detachPaymentMethod(cardId)
    const customer = await deps.payments.retrieveCustomer(customerId)
    if (customer && !customer.invoice_settings.default_payment_method) {
      const [newest] = await deps.payments.listPaymentMethods(customerId)
      if (newest) {
        await deps.payments.updateCustomer(customerId, { defaultPaymentMethod: newest.id })
      }
    }
    await syncCustomer(deps, customerId)
  })
  return billingAccountOf(deps, userId)
}

/**
 * Saves the billing form. The changes apply from the next invoice (the screen says so); the
 * country must be one we know, and the state one of its own where ISO 3166-2 lists them.
 */
export async function updateBillingInfo(
  deps: BillingDeps,
  payer: Payer,
  input: BillingInfoRequest,
): Promise<BillingAccount> {
  if (!(await isCountry(input.country))) throw new AppError(400, 'billing.countryRequired')
  if (input.state && !(await isStateOf(input.country, input.state))) {
    throw new AppError(400, 'billing.stateUnknown')
  }
  await withMemberLock(deps.db, payer.id, async () => {
    const customerId = await customerIdFor(deps, payer)
    await deps.payments.updateCustomer(customerId, {
      name: input.name,
      email: input.email,
      address: {
        line1: input.line1,
        line2: input.line2 || null,
        city: input.city || null,
        state: input.state || null,
        postal_code: input.postalCode,
        country: input.country,
      },
    })
    await syncCustomer(deps, customerId)
  })
  return billingAccountOf(deps, payer.id)
}
