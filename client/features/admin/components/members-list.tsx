import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query'
import Search from 'lucide-react/icons/search'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useSearchParams } from 'react-router'
import { SUBSCRIPTION_STATUSES } from '../../../../domain/access'
import { ACCESS_SOURCES, type MemberSearchQuery } from '../../../../domain/members'
import { Button } from '../../../components/ui/button'
import { SectionCard } from '../../../components/ui/section-card'
import { SelectField } from '../../../components/ui/select-field'
import { TextField } from '../../../components/ui/text-field'
import { useFormat } from '../../../lib/format'
import { membersQuery } from '../api'
import { accessLabel, statusLabel } from './access-label'

/** Typing pauses this long before the list is asked for: not a request per key. */
const SEARCH_PAUSE_MS = 300

const ACCESS_FILTERS = [...ACCESS_SOURCES, 'none'] as const
const isOneOf = <T extends string>(values: readonly T[], value: string | null): value is T =>
  value !== null && (values as readonly string[]).includes(value)

/** The members, newest first, by any part of the e-mail or name, by access and plan status. */
export function MembersList() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const location = useLocation()
  const q = params.get('q') ?? ''
  const access = params.get('access')
  const status = params.get('status')
  const set = useCallback(
    (name: string, value: string) =>
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous)
          if (value) next.set(name, value)
          else next.delete(name)
          return next
        },
        { replace: true },
      ),
    [setParams],
  )
  const [typed, setTyped] = useState(q)
  // What the field last wrote to the address: an address that says anything else changed under
  // the field (Back, a link), which then follows it. Comparing with what is typed now would
  // take the field's own write, arriving after more keys, for such a change and drop those keys.
  const written = useRef(q)
  const [shownQ, setShownQ] = useState(q)
  if (q !== shownQ) {
    setShownQ(q)
    if (q !== written.current) {
      written.current = q
      setTyped(q)
    }
  }
  useEffect(() => {
    const term = typed.trim()
    if (term === q) return
    const timer = setTimeout(() => {
      written.current = term
      set('q', term)
    }, SEARCH_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [typed, q, set])
  const search: Omit<MemberSearchQuery, 'after'> = {
    ...(q ? { q } : {}),
    ...(isOneOf(ACCESS_FILTERS, access) ? { access } : {}),
    ...(isOneOf(SUBSCRIPTION_STATUSES, status) ? { status } : {}),
  }
  const members = useInfiniteQuery({ ...membersQuery(search), placeholderData: keepPreviousData })
  const rows = members.data?.pages.flatMap((page) => page.members) ?? []
  const format = useFormat()
  return (
    <SectionCard title={t('admin.members.title')}>
      <div className="flex flex-col gap-4 px-5 py-4">
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is unknown before Safari 17 */}
        <form
          role="search"
          onSubmit={(event) => {
            event.preventDefault()
            set('q', typed.trim())
          }}
          className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr]"
        >
          <TextField
            label={t('admin.members.search')}
            type="search"
            value={typed}
            maxLength={100}
            onChange={(event) => setTyped(event.target.value)}
            adornment={<Search aria-hidden className="size-5 text-slate-400" />}
          />
          <SelectField
            label={t('admin.members.access')}
            value={isOneOf(ACCESS_FILTERS, access) ? access : ''}
            onChange={(event) => set('access', event.target.value)}
            options={[
              { value: '', label: t('admin.members.any') },
              ...ACCESS_FILTERS.map((value) => ({
                value,
                label: accessLabel(t, value === 'none' ? null : value),
              })),
            ]}
          />
          <SelectField
            label={t('admin.members.status')}
            value={isOneOf(SUBSCRIPTION_STATUSES, status) ? status : ''}
            onChange={(event) => set('status', event.target.value)}
            options={[
              { value: '', label: t('admin.members.any') },
              ...SUBSCRIPTION_STATUSES.map((value) => ({ value, label: statusLabel(t, value) })),
            ]}
          />
        </form>
        <p className="sr-only" aria-live="polite">
          {members.isSuccess &&
            t(members.hasNextPage ? 'admin.members.shownMore' : 'admin.members.shown', {
              count: rows.length,
            })}
        </p>
        {members.isPending ? (
          <p className="text-slate-600">{t('admin.loading')}</p>
        ) : members.isError ? (
          <div className="flex flex-col items-start gap-2">
            <p role="alert" className="text-red-700">
              {members.error.message}
            </p>
            <Button variant="secondary" onClick={() => void members.refetch()}>
              {t('admin.retry')}
            </Button>
          </div>
        ) : rows.length === 0 ? (
          <p className="text-slate-600">{t('admin.members.empty')}</p>
        ) : (
          <ul
            className="divide-y divide-slate-100"
            aria-busy={members.isFetching}
            data-testid="members"
          >
            {rows.map((member) => (
              <li key={member.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 py-3">
                <Link
                  to={`/admin?member=${encodeURIComponent(member.id)}`}
                  state={{ list: location.search }}
                  className="min-w-0 flex-[1_1_16rem] font-medium text-brand-800 underline-offset-2 [overflow-wrap:anywhere] hover:underline"
                >
                  {member.email}
                </Link>
                <span className="min-w-0 flex-[1_1_10rem] text-slate-700 [overflow-wrap:anywhere]">
                  {member.name}
                </span>
                <span className="text-sm text-slate-700">
                  {member.blocked && (
                    <strong className="mr-2 rounded bg-red-50 px-1.5 py-0.5 font-medium text-red-800">
                      {t('admin.member.blocked')}
                    </strong>
                  )}
                  {accessLabel(t, member.access)}
                  {member.planStatus && ` · ${statusLabel(t, member.planStatus)}`}
                </span>
                <span className="text-sm text-slate-500">
                  {t('admin.members.joined', { date: format.shortDay(member.createdAt) })}
                </span>
              </li>
            ))}
          </ul>
        )}
        {members.hasNextPage && (
          <Button
            variant="secondary"
            className="self-start"
            loading={members.isFetchingNextPage}
            onClick={() => void members.fetchNextPage()}
          >
            {t('admin.members.more')}
          </Button>
        )}
      </div>
    </SectionCard>
  )
}
