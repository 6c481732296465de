import { useQuery } from '@tanstack/react-query'
import ArrowLeft from 'lucide-react/icons/arrow-left'
import Gift from 'lucide-react/icons/gift'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import { RUNNING_STATUSES } from '../../../../domain/billing-plans'
import type { MemberDetail } from '../../../../domain/members'
import { Button } from '../../../components/ui/button'
import { SectionCard } from '../../../components/ui/section-card'
import { ApiError } from '../../../lib/api-client'
import { useFormat } from '../../../lib/format'
import {
  memberQuery,
  useBlockMember,
  useCancelPlan,
  useResendInvoice,
  useUnblockMember,
} from '../api'
import { accessLabel, statusLabel } from './access-label'
import { AuditLog } from './audit-log'
import { EndComplimentaryDialog, GrantComplimentaryDialog } from './complimentary-dialogs'
import { ConfirmDialog } from './confirm-dialog'
import { ReasonDialog } from './reason-dialog'
import { RefundDialog, refundableOf } from './refund-dialog'
import { SignOutDialog } from './sign-out-dialog'

/** One member: account, access and what gives it, plan, cards, invoices, payments, activity. */
export function MemberPage({ id }: { id: string }) {
  const { t } = useTranslation()
  const location = useLocation()
  const member = useQuery(memberQuery(id))
  return (
    <>
      <Link
        // Back to the list as it was, its search and filters, when it is where this came from.
        to={`/admin${typeof location.state?.list === 'string' ? location.state.list : '?view=members'}`}
        className="inline-flex items-center gap-1.5 self-start font-medium text-brand-700 hover:underline"
      >
        <ArrowLeft aria-hidden className="size-4" />
        {t('admin.member.back')}
      </Link>
      {member.isPending ? (
        <p className="text-slate-600">{t('admin.loading')}</p>
      ) : member.isError ? (
        <div className="flex flex-col items-start gap-2">
          <p role="alert" className="text-red-700">
            {member.error.message}
          </p>
          {!(member.error instanceof ApiError && member.error.status === 404) && (
            <Button variant="secondary" onClick={() => void member.refetch()}>
              {t('admin.retry')}
            </Button>
          )}
        </div>
      ) : (
        <MemberSections member={member.data} />
      )}
    </>
  )
}

/** The dialogs a member's page opens: each says what it will do before it does it. */
type Action =
  | 'grant'
  | 'end'
  | 'sign-out'
  | 'block'
  | 'unblock'
  | 'cancel-period-end'
  | 'cancel-now'

/** A label and its value in a card's list. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-x-3 gap-y-0.5 px-5 py-3 sm:flex-row">
      <dt className="text-sm text-slate-500 sm:w-48 sm:shrink-0">{label}</dt>
      <dd className="min-w-0 flex-1 text-slate-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  )
}

function MemberSections({ member }: { member: MemberDetail }) {
  const { t } = useTranslation()
  const [dialog, setDialog] = useState<Action | null>(null)
  const [refunding, setRefunding] = useState<MemberDetail['invoices'][number] | null>(null)
  const [resending, setResending] = useState<MemberDetail['invoices'][number] | null>(null)
  const resend = useResendInvoice(member.account.id)
  const close = (open: boolean) => {
    if (!open) setDialog(null)
  }
  const format = useFormat()
  const day = (iso: string) => format.shortDay(iso)
  // Complimentary access ends as the day after its last begins, UTC (the server's rule).
  const lastDay = (endsAt: string) => format.shortDay(new Date(Date.parse(endsAt) - 86_400_000))
  const { account, access, plan } = member
  const block = useBlockMember(account.id)
  const unblock = useUnblockMember(account.id)
  const cancelAtPeriodEnd = useCancelPlan(account.id, 'period-end')
  const cancelNow = useCancelPlan(account.id, 'now')
  const complimentary = access.complimentary
  return (
    <>
      <header className="flex flex-col gap-1">
        <h2 className="text-2xl font-semibold text-brand-900 [overflow-wrap:anywhere]">
          {account.name}
        </h2>
        <p className="text-slate-700 [overflow-wrap:anywhere]" data-testid="member-email">
          {account.email}
        </p>
      </header>

      <SectionCard title={t('admin.member.access')}>
        <dl className="divide-y divide-slate-100">
          <Row label={t('admin.member.hasAccess')}>
            <span data-testid="member-access">
              {access.hasAccess
                ? t('admin.member.accessFrom', { source: accessLabel(t, access.source) })
                : accessLabel(t, null)}
            </span>
          </Row>
          {complimentary && (
            <Row label={t('admin.access.complimentary')}>
              {complimentary.endsAt
                ? t('admin.member.complimentaryUntil', { date: lastDay(complimentary.endsAt) })
                : t('admin.member.complimentaryOpen')}
              <span className="block text-sm text-slate-600">
                {t('admin.member.complimentaryBy', {
                  who: complimentary.grantedBy,
                  date: day(complimentary.grantedAt),
                  reason: complimentary.reason,
                })}
              </span>
            </Row>
          )}
        </dl>
        <div className="flex flex-wrap gap-3 border-t border-slate-100 px-5 py-4">
          {complimentary ? (
            <Button variant="secondary" onClick={() => setDialog('end')}>
              {t('admin.complimentary.end')}
            </Button>
          ) : (
            <Button onClick={() => setDialog('grant')}>
              <Gift aria-hidden className="size-4" />
              {t('admin.complimentary.grant')}
            </Button>
          )}
        </div>
      </SectionCard>

      <SectionCard title={t('admin.member.account')}>
        <dl className="divide-y divide-slate-100">
          <Row label={t('admin.member.joined')}>{day(account.createdAt)}</Row>
          <Row label={t('admin.member.confirmed')}>
            {account.emailVerified ? t('admin.yes') : t('admin.no')}
          </Row>
          <Row label={t('admin.member.language')}>{t(`admin.languages.${account.language}`)}</Row>
          <Row label={t('admin.member.role')}>{t(`admin.roles.${account.role}`)}</Row>
          <Row label={t('admin.member.signedIn')}>
            {t('admin.member.sessions', { count: account.sessions })}
          </Row>
          {account.blocked && (
            <Row label={t('admin.member.blocked')}>
              <span data-testid="member-blocked">
                {t('admin.member.blockedSince', {
                  date: day(account.blocked.at),
                  reason: account.blocked.reason,
                })}
              </span>
            </Row>
          )}
        </dl>
        <div className="flex flex-wrap gap-3 border-t border-slate-100 px-5 py-4">
          <Button
            variant="secondary"
            disabled={account.sessions === 0}
            onClick={() => setDialog('sign-out')}
          >
            {t('admin.account.signOut')}
          </Button>
          {account.blocked ? (
            <Button variant="secondary" onClick={() => setDialog('unblock')}>
              {t('admin.account.unblock')}
            </Button>
          ) : (
            <Button variant="secondary" onClick={() => setDialog('block')}>
              {t('admin.account.block')}
            </Button>
          )}
        </div>
      </SectionCard>

      <SectionCard title={t('admin.member.plan')}>
        {plan ? (
          <>
            <dl className="divide-y divide-slate-100">
              <Row label={t('admin.member.planName')}>{t(`admin.plans.${plan.plan}`)}</Row>
              <Row label={t('admin.members.status')}>
                <span data-testid="member-plan-status">{statusLabel(t, plan.status)}</span>
              </Row>
              <Row label={t('admin.member.periodEnd')}>
                {day(plan.currentPeriodEnd)}
                {plan.cancelAtPeriodEnd && ` · ${t('admin.member.cancelsThen')}`}
              </Row>
            </dl>
            {RUNNING_STATUSES.includes(plan.status) && (
              <div className="flex flex-wrap gap-3 border-t border-slate-100 px-5 py-4">
                {!plan.cancelAtPeriodEnd && (
                  <Button variant="secondary" onClick={() => setDialog('cancel-period-end')}>
                    {t('admin.plan.cancelAtPeriodEnd')}
                  </Button>
                )}
                <Button variant="secondary" onClick={() => setDialog('cancel-now')}>
                  {t('admin.plan.cancelNow')}
                </Button>
              </div>
            )}
          </>
        ) : (
          <p className="px-5 py-4 text-slate-600">{t('admin.member.noPlan')}</p>
        )}
      </SectionCard>

      <SectionCard title={t('admin.member.cards')}>
        {member.cards.length === 0 ? (
          <p className="px-5 py-4 text-slate-600">{t('admin.member.noCards')}</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {member.cards.map((card, index) => (
              // Two cards may share a brand and last four digits; the list never reorders.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={index} className="px-5 py-3 text-slate-900">
                {t('admin.member.card', { brand: card.brand, last4: card.last4 })}
              </li>
            ))}
          </ul>
        )}
      </SectionCard>

      <SectionCard title={t('admin.member.invoices')}>
        {member.invoices.length === 0 ? (
          <p className="px-5 py-4 text-slate-600">{t('admin.member.noInvoices')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="member-invoices">
            {member.invoices.map((invoice) => (
              <li key={invoice.id} className="flex flex-wrap gap-x-4 gap-y-1 px-5 py-3">
                <a
                  href={`/api/admin/members/${encodeURIComponent(account.id)}/invoices/${encodeURIComponent(invoice.id)}/pdf`}
                  target="_blank"
                  rel="noopener"
                  className="font-medium text-brand-800 underline-offset-2 hover:underline"
                >
                  {t('admin.member.invoicePdf', { number: invoice.number })}
                </a>
                <span className="text-slate-700">{day(invoice.createdAt)}</span>
                <span className="text-slate-900">{format.money(invoice.amount)}</span>
                <span className="text-slate-700">
                  {t(`admin.invoiceStatus.${invoice.status}`, { defaultValue: invoice.status })}
                </span>
                {invoice.refunded > 0 && (
                  <span className="text-slate-700" data-testid="member-invoice-refunded">
                    {t('admin.refund.refunded', { amount: format.money(invoice.refunded) })}
                  </span>
                )}
                {invoice.status === 'paid' && (
                  <Button
                    variant="ghost"
                    className="ml-auto"
                    aria-label={t('admin.resend.buttonLabel', { number: invoice.number })}
                    onClick={() => setResending(invoice)}
                  >
                    {t('admin.resend.button')}
                  </Button>
                )}
                {refundableOf(invoice) > 0 && (
                  <Button
                    variant="secondary"
                    aria-label={t('admin.refund.buttonLabel', { number: invoice.number })}
                    onClick={() => setRefunding(invoice)}
                  >
                    {t('admin.refund.button')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </SectionCard>

      <SectionCard title={t('admin.member.payments')}>
        {member.payments.length === 0 ? (
          <p className="px-5 py-4 text-slate-600">{t('admin.member.noPayments')}</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {member.payments.map((payment) => (
              <li key={payment.id} className="flex flex-wrap gap-x-4 gap-y-1 px-5 py-3">
                <span className="text-slate-700">{day(payment.createdAt)}</span>
                <span className="text-slate-900">{format.money(payment.amount)}</span>
                <span className="text-slate-700">
                  {t(`admin.paymentStatus.${payment.status}`, { defaultValue: payment.status })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </SectionCard>

      <SectionCard title={t('admin.member.support')}>
        {member.supportMessages.length === 0 ? (
          <p className="px-5 py-4 text-slate-600">{t('admin.member.noSupport')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="member-support">
            {member.supportMessages.map((message) => (
              <li key={message.id} className="px-5 py-3">
                <details>
                  <summary className="flex cursor-pointer flex-wrap gap-x-3 text-slate-900">
                    <span className="font-medium [overflow-wrap:anywhere]">{message.subject}</span>
                    <span className="text-slate-600">{day(message.createdAt)}</span>
                  </summary>
                  <p className="mt-2 whitespace-pre-line text-slate-700 [overflow-wrap:anywhere]">
                    {message.body}
                  </p>
                </details>
              </li>
            ))}
          </ul>
        )}
      </SectionCard>

      <SectionCard title={t('admin.member.activity')}>
        <dl className="divide-y divide-slate-100">
          <Row label={t('admin.member.sessions')}>{member.sessionsPlayed}</Row>
          <Row label={t('admin.member.clients')}>{member.clients}</Row>
        </dl>
      </SectionCard>

      <AuditLog member={account.id} />

      <RefundDialog member={member} invoice={refunding} onClose={() => setRefunding(null)} />
      <ConfirmDialog
        open={resending !== null}
        onClose={() => setResending(null)}
        title={t('admin.resend.title', { number: resending?.number ?? '' })}
        effect={t('admin.resend.effect', {
          number: resending?.number ?? '',
          to: resending?.sendsTo.join(', ') ?? '',
        })}
        submitLabel={t('admin.resend.submit')}
        done={t('admin.resend.done', { number: resending?.number ?? '' })}
        action={resend}
        variables={resending?.id ?? ''}
      />

      <GrantComplimentaryDialog member={member} open={dialog === 'grant'} onOpenChange={close} />
      <EndComplimentaryDialog member={member} open={dialog === 'end'} onOpenChange={close} />
      <SignOutDialog member={member} open={dialog === 'sign-out'} onOpenChange={close} />
      {plan && (
        <>
          <ReasonDialog
            open={dialog === 'cancel-period-end'}
            onOpenChange={close}
            title={t('admin.plan.cancelAtPeriodEnd')}
            effect={t('admin.plan.periodEndEffect', {
              email: account.email,
              date: day(plan.currentPeriodEnd),
            })}
            submitLabel={t('admin.plan.cancelSubmit')}
            done={t('admin.plan.cancelledAtPeriodEnd')}
            send={cancelAtPeriodEnd}
          />
          <ReasonDialog
            open={dialog === 'cancel-now'}
            onOpenChange={close}
            title={t('admin.plan.cancelNow')}
            effect={t('admin.plan.nowEffect', { email: account.email })}
            submitLabel={t('admin.plan.cancelSubmit')}
            done={t('admin.plan.cancelledNow')}
            send={cancelNow}
          />
        </>
      )}
      <ReasonDialog
        open={dialog === 'block'}
        onOpenChange={close}
        title={t('admin.account.block')}
        effect={t('admin.account.blockEffect', { email: account.email })}
        submitLabel={t('admin.account.blockSubmit')}
        done={t('admin.account.blockedDone')}
        send={block}
      />
      <ReasonDialog
        open={dialog === 'unblock'}
        onOpenChange={close}
        title={t('admin.account.unblock')}
        effect={t('admin.account.unblockEffect', { email: account.email })}
        submitLabel={t('admin.account.unblockSubmit')}
        done={t('admin.account.unblockedDone')}
        send={unblock}
      />
    </>
  )
}
