import { and, count, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { users } from '../../../db/schema/auth'
import {
  billingInvoices,
  billingNotices,
  billingPrices,
  type billingSubscriptions,
} from '../../../db/schema/billing'
import { priceLabel } from '../../../domain/billing'
import { FOUR_PAYMENTS_INSTALLMENTS } from '../../../domain/billing-plans'
import { formatDay, formatMoney } from '../../../domain/format'
import { isLanguage, type Language } from '../../../domain/i18n'
import { translate } from '../../i18n'
import { paragraph, type RenderedEmail, renderLetter } from '../../mail/layout'
import { refusalMessage } from './customers'
import { currentPlanRow } from './plan-sync'
import type { BillingDeps } from './service'

// The billing mails that are not invoices, each sent once, in the member's language, with the
// link to the page that deals with it (issue 29): a renewal or installment the bank refused, a
// plan that will end after its renewal was cancelled, and the last of four payments made. They
// are read from our billing tables after each sync of the provider's events, so the sandbox's
// clock (`npm run cli -- billing advance`) sends them as real time would.

type PlanRow = typeof billingSubscriptions.$inferSelect
type InvoiceRow = typeof billingInvoices.$inferSelect

interface Due {
  kind: 'renewal_failed' | 'plan_ends' | 'paid_in_full'
  /** What it is about: the notice goes once per kind and key. */
  key: string
  letter: (language: Language, name: string) => RenderedEmail
}

/** Billing's dependencies in this app, with its notices mailed after every sync. */
export function billingDepsOf(app: FastifyInstance): BillingDeps {
  return {
    db: app.db,
    payments: app.payments,
    afterSync: (userId) => queueBillingNotices(app, userId),
  }
}

/**
 * Mails the member what their billing now calls for and they were not told yet. The notices
 * are claimed and their mail queued in one transaction: two syncs at once send each one once.
 */
export async function queueBillingNotices(app: FastifyInstance, userId: string): Promise<void> {
  const [user] = await app.db
    .select({ email: users.email, name: users.name, language: users.language })
    .from(users)
    .where(eq(users.id, userId))
  if (!user) return
  const language = isLanguage(user.language) ? user.language : 'en'
  const due = await dueNotices(app, userId)
  if (due.length === 0) return
  await app.db.transaction(async (tx) => {
    const claimed = await tx
      .insert(billingNotices)
      .values(due.map(({ kind, key }) => ({ userId, kind, key })))
      .onConflictDoNothing()
      .returning({ kind: billingNotices.kind, key: billingNotices.key })
    for (const notice of claimed) {
      const found = due.find((each) => each.kind === notice.kind && each.key === notice.key)
      if (found) await app.mailer.send({ to: user.email, ...found.letter(language, user.name) })
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
        renewalFailedLetter(language, name, invoice, label, link('/my-account')),
    })
  }
  if (!plan) return due
  const running = plan.status === 'active' || plan.status === 'trialing'
  if (running && plan.cancelAtPeriodEnd) {
    due.push({
      kind: 'plan_ends',
      key: `${plan.id}:${plan.currentPeriodEnd.toISOString()}`,
      letter: (language, name) =>
        planEndsLetter(language, name, label, plan.currentPeriodEnd, link('/my-account')),
    })
  }
  if (
    plan.plan === 'four_payments' &&
    (await installmentsPaid(app, plan)) >= FOUR_PAYMENTS_INSTALLMENTS
  ) {
    due.push({
      kind: 'paid_in_full',
      key: plan.id,
      letter: (language, name) => paidInFullLetter(language, name, label, link('/home')),
    })
  }
  return due
}

async function labelOf(app: FastifyInstance, plan: PlanRow): Promise<string> {
  const [price] = await app.db
    .select({ nickname: billingPrices.nickname })
    .from(billingPrices)
    .where(eq(billingPrices.id, plan.priceId))
  return priceLabel(price?.nickname ?? plan.plan.toUpperCase())
}

async function installmentsPaid(app: FastifyInstance, plan: PlanRow): Promise<number> {
  const [row] = await app.db
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
