import { and, count, eq, inArray, lte } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../../../db/client'
import { users } from '../../../db/schema/auth'
import {
  billingCustomers,
  billingInvoices,
  billingNotices,
  billingPaymentMethods,
  billingPrices,
  billingSubscriptions,
} from '../../../db/schema/billing'
import { planName, priceLabel } from '../../../domain/billing'
import { FOUR_PAYMENTS_INSTALLMENTS } from '../../../domain/billing-plans'
import { formatDay, formatMoney, formatMonth } from '../../../domain/format'
import { isLanguage, type Language } from '../../../domain/i18n'
import { translate } from '../../i18n'
import { paragraph, type RenderedEmail, renderLetter } from '../../mail/layout'
import { refusalMessage } from './customers'
import { currentPlanRow, renewalRemindersOf } from './plan-sync'
import type { BillingDeps } from './service'

// The billing mails that are not invoices, each sent once, in the member's language, with the
// link to the page that deals with it (issue 29): a renewal or installment the bank refused, a
// plan that will end after its renewal was cancelled, and the last of four payments made are
// read from our billing tables after each sync of the provider's events. Two depend on the time
// left before the next charge: a default card that expires before it (14 days before) and, for
// members who asked for it, a reminder (3 days before). Those are looked for at the member's
// own time: by the hourly pass at real time, and by `npm run cli -- billing advance`, which
// stops the sandbox's clock at each of their moments and at each charge (after which the next
// charge's moments are known), so they come as real time would send them.

/** How long before a charge the member hears that the card it would use expires first. */
export const CARD_EXPIRING_DAYS = 14
/** How long before each monthly charge a member who asked for it is reminded of it. */
export const REMINDER_DAYS = 3
const DAY_MS = 86_400_000

type PlanRow = typeof billingSubscriptions.$inferSelect
type InvoiceRow = typeof billingInvoices.$inferSelect

interface Due {
  kind: 'renewal_failed' | 'plan_ends' | 'paid_in_full' | 'card_expiring' | 'renewal_reminder'
  /** What it is about: the notice goes once per kind and key. */
  key: string
  letter: (language: Language, name: string) => RenderedEmail
}

/** Billing's dependencies in this app, with its notices mailed after every sync. */
export function billingDepsOf(app: FastifyInstance): BillingDeps {
  return {
    db: app.db,
    payments: app.payments,
    afterSync: (userId, at) => queueBillingNotices(app, userId, at),
  }
}

/**
 * Mails the member what their billing now calls for and they were not told yet; with `at`,
 * the member's time, also what is due by then before the next charge. The notices are claimed
 * and their mail queued in one transaction: two syncs at once send each one once.
 */
export async function queueBillingNotices(
  app: FastifyInstance,
  userId: string,
  at?: Date,
): Promise<void> {
  const due = await dueNotices(app, userId)
  if (at) due.push(...(await dueBeforeCharge(app, userId, at)))
  await sendOnce(app, userId, due)
}

/**
 * Claims each notice not sent yet and queues its mail, in one transaction. A blocked account
 * (an operator's block, or its deletion under way) is sent nothing and nothing is claimed: once
 * unblocked, the next sync or pass sends what is still due. Each mail names the member, so one
 * queued just before the account was deleted is not delivered after it (mail.ts).
 */
async function sendOnce(app: FastifyInstance, userId: string, due: Due[]): Promise<void> {
  if (due.length === 0) return
  const [user] = await app.db
    .select({
      email: users.email,
      name: users.name,
      language: users.language,
      blockedAt: users.blockedAt,
    })
    .from(users)
    .where(eq(users.id, userId))
  if (!user || user.blockedAt) return
  const language = isLanguage(user.language) ? user.language : 'en'
  await app.db.transaction(async (tx) => {
    const claimed = await tx
      .insert(billingNotices)
      .values(due.map(({ kind, key }) => ({ userId, kind, key })))
      .onConflictDoNothing()
      .returning({ kind: billingNotices.kind, key: billingNotices.key })
    for (const notice of claimed) {
      const found = due.find((each) => each.kind === notice.kind && each.key === notice.key)
      if (found) {
        await app.mailer.send({
          to: user.email,
          member: userId,
          ...found.letter(language, user.name),
        })
      }
    }
  })
}

async function dueNotices(app: FastifyInstance, userId: string): Promise<Due[]> {
  const link = (path: string) => `${app.config.publicUrl}${path}`
  const due: Due[] = []
  const plan = await currentPlanRow(app.db, userId)
  const label = plan ? await labelOf(app, plan) : ''
  // A charge of a running plan the bank refused (not a first payment, which the member sees
  // fail on the page they are on): once per try, so each retry's mail names the next one.
  const refused = await app.db
    .select()
    .from(billingInvoices)
    .where(
      and(
        eq(billingInvoices.userId, userId),
        eq(billingInvoices.status, 'open'),
        eq(billingInvoices.billingReason, 'subscription_cycle'),
        eq(billingInvoices.lastChargeStatus, 'requires_payment_method'),
      ),
    )
  for (const invoice of refused) {
    due.push({
      kind: 'renewal_failed',
      key: `${invoice.id}:${invoice.attemptCount}`,
      letter: (language, name) =>
        renewalFailedLetter(
          language,
          name,
          invoice,
          planName(label, language),
          link('/my-account'),
        ),
    })
  }
  if (!plan) return due
  const running = plan.status === 'active' || plan.status === 'trialing'
  if (running && plan.cancelAtPeriodEnd) {
    due.push({
      kind: 'plan_ends',
      key: `${plan.id}:${plan.currentPeriodEnd.toISOString()}`,
      letter: (language, name) =>
        planEndsLetter(
          language,
          name,
          planName(label, language),
          plan.currentPeriodEnd,
          link('/my-account'),
        ),
    })
  }
  if (
    plan.plan === 'four_payments' &&
    (await installmentsPaid(app.db, plan)) >= FOUR_PAYMENTS_INSTALLMENTS
  ) {
    due.push({
      kind: 'paid_in_full',
      key: plan.id,
      letter: (language, name) =>
        paidInFullLetter(language, name, planName(label, language), link('/home')),
    })
  }
  return due
}

async function labelOf(app: FastifyInstance, plan: PlanRow): Promise<string> {
  return priceLabel((await priceOf(app.db, plan))?.nickname ?? plan.plan.toUpperCase())
}

async function priceOf(db: Database, plan: PlanRow) {
  const [price] = await db
    .select({
      nickname: billingPrices.nickname,
      unitAmount: billingPrices.unitAmount,
      currency: billingPrices.currency,
    })
    .from(billingPrices)
    .where(eq(billingPrices.id, plan.priceId))
  return price ?? null
}

async function installmentsPaid(db: Database, plan: PlanRow): Promise<number> {
  const [row] = await db
    .select({ paid: count() })
    .from(billingInvoices)
    .where(
      and(
        eq(billingInvoices.subscriptionId, plan.id),
        eq(billingInvoices.priceId, plan.priceId),
        eq(billingInvoices.status, 'paid'),
      ),
    )
  return Number(row?.paid ?? 0)
}

interface NextCharge {
  plan: PlanRow
  at: Date
  amount: number
  currency: (typeof billingPrices.$inferSelect)['currency']
  label: string
}

/** A running monthly plan that will charge at the end of its period, and what it will charge. */
/**
 * Whether the plan charges again at the end of its period: it runs (not paused, late or
 * ending), and FOUR PAYMENTS has a payment left. The rule the notices are sent by, which My
 * Account also offers the reminder by (PlanState.remindable) from the rows it has read.
 */
export function chargesAgain(plan: PlanRow, installmentsPaid: number): boolean {
  if (plan.status !== 'active' && plan.status !== 'trialing') return false
  if (plan.paused || plan.cancelAtPeriodEnd) return false
  // FOUR PAYMENTS ends by itself (`cancel_at`) after its fourth month: that end charges nothing.
  if (plan.cancelAt && plan.cancelAt <= plan.currentPeriodEnd) return false
  return plan.plan !== 'four_payments' || installmentsPaid < FOUR_PAYMENTS_INSTALLMENTS
}

async function nextChargeOf(db: Database, userId: string): Promise<NextCharge | null> {
  const plan = await currentPlanRow(db, userId)
  if (!plan) return null
  const paid = plan.plan === 'four_payments' ? await installmentsPaid(db, plan) : 0
  if (!chargesAgain(plan, paid)) return null
  const price = await priceOf(db, plan)
  if (!price) return null
  return {
    plan,
    at: plan.currentPeriodEnd,
    amount: price.unitAmount,
    currency: price.currency,
    label: priceLabel(price.nickname),
  }
}

/** The default card, when it stops working before `chargeAt` (a card works to its month's end). */
async function cardExpiringBefore(db: Database, userId: string, chargeAt: Date) {
  const [card] = await db
    .select({
      id: billingPaymentMethods.id,
      last4: billingPaymentMethods.last4,
      expMonth: billingPaymentMethods.expMonth,
      expYear: billingPaymentMethods.expYear,
    })
    .from(billingCustomers)
    .innerJoin(
      billingPaymentMethods,
      eq(billingPaymentMethods.id, billingCustomers.defaultPaymentMethodId),
    )
    .where(eq(billingCustomers.userId, userId))
  if (!card) return null
  return Date.UTC(card.expYear, card.expMonth, 1) <= chargeAt.getTime() ? card : null
}

/** The notices due by `at`, the member's time, before their plan's next charge. */
async function dueBeforeCharge(app: FastifyInstance, userId: string, at: Date): Promise<Due[]> {
  const charge = await nextChargeOf(app.db, userId)
  if (!charge || at >= charge.at) return []
  const left = charge.at.getTime() - at.getTime()
  const due: Due[] = []
  const account = `${app.config.publicUrl}/my-account`
  if (left <= CARD_EXPIRING_DAYS * DAY_MS) {
    const card = await cardExpiringBefore(app.db, userId, charge.at)
    // Once per card and plan: a member who keeps the card is told again by the refusal.
    if (card) {
      due.push({
        kind: 'card_expiring',
        key: `${charge.plan.id}:${card.id}`,
        letter: (language, name) =>
          cardExpiringLetter(language, name, card, charge, `${account}/add-credit-card?default=1`),
      })
    }
  }
  if (left <= REMINDER_DAYS * DAY_MS && (await renewalRemindersOf(app.db, userId))) {
    due.push({
      kind: 'renewal_reminder',
      key: `${charge.plan.id}:${charge.at.toISOString()}`,
      letter: (language, name) => renewalReminderLetter(language, name, charge, account),
    })
  }
  return due
}

/**
 * Where `billing advance` stops the member's clock on its way: the moments before the next
 * charge at which a notice falls due (14 days before, when the default card expires first; 3
 * days before, for a member who asked to be reminded), and the charge itself. Only once it is
 * made does the next period, and so the next charge's moments, exist: the clock asks again
 * after each stop, so an advance over several charges sends each one's notices.
 */
export async function clockStops(db: Database, userId: string): Promise<Date[]> {
  const charge = await nextChargeOf(db, userId)
  if (!charge) return []
  const at = charge.at.getTime()
  const stops = [charge.at]
  if (await cardExpiringBefore(db, userId, charge.at)) {
    stops.push(new Date(at - CARD_EXPIRING_DAYS * DAY_MS))
  }
  if (await renewalRemindersOf(db, userId)) stops.push(new Date(at - REMINDER_DAYS * DAY_MS))
  return stops
}

/**
 * The hourly pass: every member whose plan charges again soon is looked at on their own time
 * (a test clock's in test mode, real time otherwise). One member's failure is logged and the
 * others still go; the next pass tries again, and each notice still goes once.
 */
export async function queueNoticesBeforeCharges(app: FastifyInstance): Promise<number> {
  const clocks = app.payments.testClocks
  const soon = new Date(Date.now() + CARD_EXPIRING_DAYS * DAY_MS)
  const rows = await app.db
    .selectDistinct({
      userId: billingSubscriptions.userId,
      customerId: billingCustomers.customerId,
    })
    .from(billingSubscriptions)
    .innerJoin(billingCustomers, eq(billingCustomers.userId, billingSubscriptions.userId))
    .where(
      and(
        inArray(billingSubscriptions.status, ['active', 'trialing']),
        eq(billingSubscriptions.cancelAtPeriodEnd, false),
        // On a test clock a member's time may be far ahead of ours: each is asked for it.
        clocks ? undefined : lte(billingSubscriptions.currentPeriodEnd, soon),
        eq(billingSubscriptions.paused, false),
      ),
    )
  let looked = 0
  for (const row of rows) {
    try {
      const at = clocks ? new Date((await clocks.nowOf(row.customerId)) * 1000) : new Date()
      await sendOnce(app, row.userId, await dueBeforeCharge(app, row.userId, at))
      looked += 1
    } catch (error) {
      app.log.error({ err: error, userId: row.userId }, 'billing notices before a charge failed')
    }
  }
  return looked
}

/** A renewal or installment refused: how much, why, when it is tried again, where to pay. */
export function renewalFailedLetter(
  language: Language,
  name: string,
  invoice: Pick<InvoiceRow, 'total' | 'currency' | 'lastChargeFailure' | 'nextPaymentAttempt'>,
  plan: string,
  payAt: string,
): RenderedEmail {
  const amount = formatMoney(invoice.total, language, invoice.currency)
  const reason = translate(refusalMessage(invoice.lastChargeFailure), language)
  const next = invoice.nextPaymentAttempt ? formatDay(invoice.nextPaymentAttempt, language) : null
  const lines =
    language === 'es'
      ? {
          subject: `No pudimos cobrar ${amount} de tu plan de Harmonize`,
          refused: `Tu banco rechazó el cobro de ${amount} de tu plan ${plan}. Motivo: ${reason}`,
          next: next
            ? `Volveremos a intentarlo el ${next}; hasta entonces mantienes el acceso.`
            : 'Lo intentamos varias veces, así que tu acceso está en pausa hasta que se pague la factura.',
          link: 'Pagar la factura ahora',
          card: 'Si la tarjeta ya no sirve, añade otra en la misma página: pasará a ser la predeterminada.',
        }
      : {
          subject: `We could not charge ${amount} for your Harmonize plan`,
          refused: `Your bank refused the charge of ${amount} for your plan ${plan}. Reason: ${reason}`,
          next: next
            ? `We will try again on ${next}; you keep access until then.`
            : 'We tried several times, so your access is paused until the invoice is paid.',
          link: 'Pay the invoice now',
          card: 'If the card no longer works, add another on the same page: it becomes your default.',
        }
  return renderLetter({
    language,
    subject: lines.subject,
    name,
    blocks: [
      paragraph(lines.refused),
      paragraph(lines.next),
      { kind: 'link', text: lines.link, href: payAt },
      paragraph(lines.card),
    ],
  })
}

/** The renewal was cancelled: the day access ends, and the way to change one's mind. */
export function planEndsLetter(
  language: Language,
  name: string,
  plan: string,
  endsAt: Date,
  accountAt: string,
): RenderedEmail {
  const day = formatDay(endsAt, language)
  const lines =
    language === 'es'
      ? {
          subject: `Tu plan de Harmonize termina el ${day}`,
          text: `Cancelaste la renovación de ${plan}. Mantienes el acceso hasta el ${day} y no se cobrará nada más.`,
          link: 'Reactivar la suscripción en Mi cuenta',
        }
      : {
          subject: `Your Harmonize plan ends on ${day}`,
          text: `You cancelled the renewal of ${plan}. You keep access until ${day}, and nothing more will be charged.`,
          link: 'Reactivate the subscription in My Account',
        }
  return renderLetter({
    language,
    subject: lines.subject,
    name,
    blocks: [paragraph(lines.text), { kind: 'link', text: lines.link, href: accountAt }],
  })
}

/** The fourth of FOUR PAYMENTS is paid: nothing more is charged, and access stays. */
export function paidInFullLetter(
  language: Language,
  name: string,
  plan: string,
  panelsAt: string,
): RenderedEmail {
  const lines =
    language === 'es'
      ? {
          subject: 'Último pago hecho: Harmonize es tuyo para siempre',
          text: `Ese fue el último de tus cuatro pagos de ${plan}. No se cobrará nada más y tu acceso se mantiene.`,
          link: 'Abrir los paneles',
        }
      : {
          subject: 'Last payment made: Harmonize is yours for good',
          text: `That was the last of your four payments for ${plan}. Nothing more will be charged, and your access stays.`,
          link: 'Open the panels',
        }
  return renderLetter({
    language,
    subject: lines.subject,
    name,
    blocks: [paragraph(lines.text), { kind: 'link', text: lines.link, href: panelsAt }],
  })
}

/** The card the next charge would use expires first: which card, when, and where to add one. */
export function cardExpiringLetter(
  language: Language,
  name: string,
  card: { last4: string; expMonth: number; expYear: number },
  charge: Pick<NextCharge, 'at' | 'amount' | 'currency' | 'label'>,
  addCardAt: string,
): RenderedEmail {
  const amount = formatMoney(charge.amount, language, charge.currency)
  const day = formatDay(charge.at, language)
  const expiry = formatMonth(card.expYear, card.expMonth, language)
  const lines =
    language === 'es'
      ? {
          subject: `Tu tarjeta terminada en ${card.last4} caduca antes de tu próximo pago`,
          text: `Tu tarjeta terminada en ${card.last4} caduca en ${expiry}, antes del próximo pago de ${amount} de tu plan ${planName(charge.label, 'es')}, el ${day}.`,
          fix: 'Añade una tarjeta nueva y márcala como predeterminada para que el pago no falle.',
          link: 'Añadir una tarjeta',
        }
      : {
          subject: `Your card ending in ${card.last4} expires before your next payment`,
          text: `Your card ending in ${card.last4} expires in ${expiry}, before the next payment of ${amount} for your plan ${charge.label} on ${day}.`,
          fix: 'Add a new card and make it your default so that the payment does not fail.',
          link: 'Add a card',
        }
  return renderLetter({
    language,
    subject: lines.subject,
    name,
    blocks: [
      paragraph(lines.text),
      paragraph(lines.fix),
      { kind: 'link', text: lines.link, href: addCardAt },
    ],
  })
}

/** The reminder a member asked for: what will be charged, when, and where to change it. */
export function renewalReminderLetter(
  language: Language,
  name: string,
  charge: Pick<NextCharge, 'at' | 'amount' | 'currency' | 'label'>,
  accountAt: string,
): RenderedEmail {
  const amount = formatMoney(charge.amount, language, charge.currency)
  const day = formatDay(charge.at, language)
  const lines =
    language === 'es'
      ? {
          subject: `Tu próximo pago de Harmonize, ${amount}, es el ${day}`,
          text: `El ${day} cobraremos ${amount} de tu plan ${planName(charge.label, 'es')} a tu tarjeta predeterminada.`,
          change:
            'En Mi cuenta puedes cambiar de tarjeta o cancelar la renovación, y dejar de recibir estos recordatorios.',
          link: 'Abrir Mi cuenta',
        }
      : {
          subject: `Your next Harmonize payment, ${amount}, is on ${day}`,
          text: `On ${day} we will charge ${amount} for your plan ${charge.label} to your default card.`,
          change:
            'In My Account you can change the card or cancel the renewal, and turn these reminders off.',
          link: 'Open My Account',
        }
  return renderLetter({
    language,
    subject: lines.subject,
    name,
    blocks: [
      paragraph(lines.text),
      paragraph(lines.change),
      { kind: 'link', text: lines.link, href: accountAt },
    ],
  })
}
