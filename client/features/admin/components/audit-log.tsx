import { useInfiniteQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { type AuditEntry, COMMAND_LINE_ACTOR } from '../../../../domain/operators'
import { Button } from '../../../components/ui/button'
import { SectionCard } from '../../../components/ui/section-card'
import { useFormat } from '../../../lib/format'
import { auditQuery } from '../api'

/** The audit log, newest first, a page at a time: everyone's, or one member's. */
export function AuditLog({ member }: { member?: string }) {
  const { t } = useTranslation()
  const audit = useInfiniteQuery(auditQuery(member))
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? []
  const format = useFormat()
  return (
    <SectionCard title={t('admin.audit.title')}>
      <div className="flex flex-col gap-3 px-5 py-4">
        <p className="text-sm text-slate-600">
          {t(member ? 'admin.audit.memberIntro' : 'admin.audit.intro')}
        </p>
        {audit.isPending ? (
          <p className="text-slate-600">{t('admin.loading')}</p>
        ) : audit.isError ? (
          <p role="alert" className="text-red-700">
            {audit.error.message}
          </p>
        ) : entries.length === 0 ? (
          <p className="text-slate-600">{t('admin.audit.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="audit-log">
            {entries.map((entry) => (
              <AuditRow
                key={entry.id}
                entry={entry}
                when={format.dateTime(entry.at)}
                hideMember={member !== undefined}
              />
            ))}
          </ul>
        )}
        {audit.hasNextPage && (
          <Button
            variant="secondary"
            className="self-start"
            loading={audit.isFetchingNextPage}
            onClick={() => void audit.fetchNextPage()}
          >
            {t('admin.audit.loadMore')}
          </Button>
        )}
      </div>
    </SectionCard>
  )
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

/**
 * A state before or after a change, in words: each field by its name in the console's language
 * (its own name when the console has none), yes and no, dates as dates, nothing as a dash.
 */
function useStateText(): (value: unknown) => string {
  const { t } = useTranslation()
  const format = useFormat()
  const text = (value: unknown): string => {
    if (value === null || value === undefined) return '—'
    if (typeof value === 'boolean') return value ? t('admin.yes') : t('admin.no')
    if (typeof value === 'string') return ISO_TIME.test(value) ? format.dateTime(value) : value
    if (typeof value !== 'object') return String(value)
    if (Array.isArray(value)) return value.map(text).join(', ')
    return Object.entries(value)
      .map(
        ([key, field]) =>
          `${t(`admin.audit.fields.${key}`, { defaultValue: key })}: ${text(field)}`,
      )
      .join('; ')
  }
  return text
}

function AuditRow({
  entry,
  when,
  hideMember,
}: {
  entry: AuditEntry
  when: string
  hideMember: boolean
}) {
  const { t } = useTranslation()
  const stateText = useStateText()
  return (
    <li className="flex flex-col gap-1 py-3 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-medium text-slate-900" title={entry.action}>
          {t(`admin.audit.actions.${entry.action.replace(/[.-]/g, '_')}`, {
            defaultValue: entry.action,
          })}
        </span>
        <time dateTime={entry.at} className="text-slate-600">
          {when}
        </time>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-slate-700 [overflow-wrap:anywhere]">
        <dt className="text-slate-500">{t('admin.audit.by')}</dt>
        <dd>{entry.actor === COMMAND_LINE_ACTOR ? t('admin.audit.commandLine') : entry.actor}</dd>
        {entry.memberEmail && !hideMember && (
          <>
            <dt className="text-slate-500">{t('admin.audit.member')}</dt>
            <dd>{entry.memberEmail}</dd>
          </>
        )}
        {(entry.before !== null || entry.after !== null) && (
          <>
            <dt className="text-slate-500">{t('admin.audit.before')}</dt>
            <dd data-testid="audit-before">{stateText(entry.before)}</dd>
            <dt className="text-slate-500">{t('admin.audit.after')}</dt>
            <dd data-testid="audit-after">{stateText(entry.after)}</dd>
          </>
        )}
        {entry.reason && (
          <>
            <dt className="text-slate-500">{t('admin.audit.reason')}</dt>
            <dd>{entry.reason}</dd>
          </>
        )}
      </dl>
    </li>
  )
}
