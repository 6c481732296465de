import ArrowLeft from 'lucide-react/icons/arrow-left'
import Download from 'lucide-react/icons/download'
import Plus from 'lucide-react/icons/plus'
import Search from 'lucide-react/icons/search'
import Trash2 from 'lucide-react/icons/trash'
import UserRound from 'lucide-react/icons/user-round'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import type { ClientSummary } from '../../../../domain/clients'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { TextField } from '../../../components/ui/text-field'
import { useHeaderSlot } from '../../../lib/header-slot'
import { useNotifications } from '../../../lib/notifications'
import { useClientPage, useDeleteClient } from '../api'
import { Loading } from '../components/loading'
import { RequireAccess } from '../components/require-access'

const SEARCH_DELAY_MS = 250

/** What was typed, once the person has paused: one request per pause, not per key. */
function useSettled(value: string): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [value])
  return settled
}

/**
 * /aura-user-record: the saved clients with picture and full name, each opening the client form
 * (spec scans §2 User records); search by name; the next page loads as the list is scrolled.
 */
export function UserRecordsPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [typed, setTyped] = useState('')
  const search = useSettled(typed.trim())
  // The cursors of the pages shown after the first, for this search.
  const [more, setMore] = useState<{ search: string; cursors: string[] }>({ search, cursors: [] })
  const cursors = more.search === search ? more.cursors : []
  const [deleting, setDeleting] = useState<ClientSummary | null>(null)

  // On a phone the header buttons are their icons (their names still read out): with their
  // words they left the page's title no room.
  const actions = useMemo(() => {
    const style =
      'flex shrink-0 items-center gap-1 rounded-full p-2 text-sm font-medium hover:bg-white/15 sm:px-3 sm:py-1.5'
    return (
      <>
        <button type="button" className={style} onClick={() => navigate('/user-details')}>
          <ArrowLeft aria-hidden className="size-5 sm:size-4" />
          <span className="sr-only sm:not-sr-only">{t('clients.records.back')}</span>
        </button>
        <button type="button" className={style} onClick={() => navigate('/user-details')}>
          <Plus aria-hidden className="size-5 sm:size-4" />
          <span className="sr-only sm:not-sr-only">{t('clients.records.new')}</span>
        </button>
      </>
    )
  }, [navigate, t])
  useHeaderSlot({ actions })

  const pages = [null, ...cursors]
  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-6">
      <RequireAccess>
        <TextField
          label={t('clients.records.search')}
          type="search"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          adornment={<Search aria-hidden className="size-5 text-slate-400" />}
          data-testid="client-search"
        />
        <ul className="grid gap-3 sm:grid-cols-2" data-testid="client-list">
          {pages.map((cursor, index) => (
            <ClientPage
              key={cursor ?? 'first'}
              search={search}
              cursor={cursor}
              last={index === pages.length - 1}
              onMore={(next) => setMore({ search, cursors: [...cursors.slice(0, index), next] })}
              onDelete={setDeleting}
            />
          ))}
        </ul>
      </RequireAccess>
      <DeleteClientDialog client={deleting} onClose={() => setDeleting(null)} />
    </section>
  )
}

/**
 * One page of the list. The first says when there is nothing at all; the last offers the next
 * page, which also comes by itself when its end scrolls into view.
 */
function ClientPage({
  search,
  cursor,
  last,
  onMore,
  onDelete,
}: {
  search: string
  cursor: string | null
  last: boolean
  onMore: (cursor: string) => void
  onDelete: (client: ClientSummary) => void
}) {
  const { t } = useTranslation()
  const page = useClientPage(search, cursor)
  const next = last ? (page.data?.nextCursor ?? null) : null
  const end = useRef<HTMLLIElement>(null)
  useEffect(() => {
    const target = end.current
    if (!target || !next || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onMore(next)
    })
    observer.observe(target)
    return () => observer.disconnect()
  }, [next, onMore])

  const wide = 'sm:col-span-2'
  if (page.isPending) {
    return (
      <li className={wide}>
        <Loading text={t('clients.records.loading')} />
      </li>
    )
  }
  if (page.isError) {
    return (
      <li role="alert" className={`${wide} flex flex-col items-start gap-3 text-red-700`}>
        {t('common.networkError')}
        <Button variant="secondary" onClick={() => void page.refetch()}>
          {t('panels.retry')}
        </Button>
      </li>
    )
  }
  if (cursor === null && page.data.clients.length === 0) {
    return (
      <li
        className={`${wide} rounded-2xl bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200`}
        data-testid="records-empty"
      >
        {search ? t('clients.records.noMatch', { search }) : t('clients.records.empty')}
      </li>
    )
  }
  return (
    <>
      {page.data.clients.map((client) => (
        <ClientCard key={client.id} client={client} onDelete={() => onDelete(client)} />
      ))}
      {next && (
        <li ref={end} className={`${wide} flex justify-center`}>
          <Button variant="secondary" onClick={() => onMore(next)}>
            {t('clients.records.loadMore')}
          </Button>
        </li>
      )}
    </>
  )
}

const fullName = (client: Pick<ClientSummary, 'firstName' | 'lastName'>) =>
  `${client.firstName} ${client.lastName}`

function ClientCard({ client, onDelete }: { client: ClientSummary; onDelete: () => void }) {
  const { t } = useTranslation()
  const name = fullName(client)
  return (
    <li
      className="flex items-center gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200"
      data-testid="client-row"
    >
      <Link
        to={`/user-details#${client.id}`}
        aria-label={t('clients.records.open', { name })}
        className="flex min-w-0 flex-1 items-center gap-3 rounded-xl p-1 hover:bg-brand-50"
      >
        {client.photoUrl ? (
          <img
            src={client.photoUrl}
            alt=""
            loading="lazy"
            decoding="async"
            className="size-14 shrink-0 rounded-full object-cover ring-1 ring-slate-200"
          />
        ) : (
          <span className="flex size-14 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-500">
            <UserRound aria-label={t('clients.records.noPhoto')} className="size-7" />
          </span>
        )}
        <span className="truncate text-base font-medium text-slate-900">{name}</span>
      </Link>
      <a
        href={`/api/clients/${client.id}/export`}
        download
        aria-label={`${t('clients.records.export')}: ${name}`}
        title={t('clients.records.exportHint')}
        className="rounded-full p-2 text-slate-500 hover:bg-brand-50 hover:text-brand-700"
      >
        <Download aria-hidden className="size-5" />
      </a>
      <button
        type="button"
        onClick={onDelete}
        aria-label={`${t('clients.records.delete')}: ${name}`}
        className="rounded-full p-2 text-slate-500 hover:bg-red-50 hover:text-red-700"
      >
        <Trash2 aria-hidden className="size-5" />
      </button>
    </li>
  )
}

function DeleteClientDialog({
  client,
  onClose,
}: {
  client: ClientSummary | null
  onClose: () => void
}) {
  const { t } = useTranslation()
  const remove = useDeleteClient()
  const { notify } = useNotifications()
  const name = client ? fullName(client) : ''
  return (
    <Dialog
      open={client !== null}
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
      title={t('clients.records.deleteTitle', { name })}
      description={t('clients.records.deleteBody')}
    >
      <div className="mt-2 flex justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          className="bg-red-700 hover:bg-red-800"
          disabled={remove.isPending}
          onClick={() => {
            if (!client) return
            remove.mutate(client.id, {
              onSuccess: () => {
                notify('success', t('clients.records.deleted', { name }))
                onClose()
              },
              onError: () => notify('error', t('common.networkError')),
            })
          }}
        >
          {t('clients.records.deleteConfirm')}
        </Button>
      </div>
    </Dialog>
  )
}
