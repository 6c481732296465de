import { zodResolver } from '@hookform/resolvers/zod'
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query'
import Copy from 'lucide-react/icons/copy'
import Search from 'lucide-react/icons/search'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { createCodesRequestSchema, type OperatorCode } from '../../../../domain/access-codes'
import { Button } from '../../../components/ui/button'
import { FormAlert } from '../../../components/ui/form-alert'
import { SectionCard } from '../../../components/ui/section-card'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useFormat } from '../../../lib/format'
import { useNotifications } from '../../../lib/notifications'
import { codesQuery, useCreateCodes, useRevokeCode } from '../api'
import { useConsoleMessageText } from '../messages'
import { ConfirmDialog } from './confirm-dialog'
import { ListState } from './list-state'

/** Typing pauses this long before the list is asked for: not a request per key. */
const SEARCH_PAUSE_MS = 300

/** The form's own: the count as typed, a number once checked. */
const createFormSchema = z.object({
  count: z.string().check(z.regex(/^\s*\d{1,3}\s*$/, { error: 'admin.codes.countFormat' })),
  note: z.string(),
})

/** Access codes: make some to give out (and copy them), see who used which, revoke one. */
export function Codes() {
  const { t } = useTranslation()
  const [typed, setTyped] = useState('')
  const [q, setQ] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), SEARCH_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [typed])
  const codes = useInfiniteQuery({ ...codesQuery(q), placeholderData: keepPreviousData })
  const [made, setMade] = useState<string[] | null>(null)
  const [revoking, setRevoking] = useState<OperatorCode | null>(null)
  const format = useFormat()
  const list = codes.data?.pages.flatMap((page) => page.codes) ?? []
  return (
    <>
      <SectionCard title={t('admin.codes.createTitle')}>
        <div className="flex flex-col gap-4 px-5 py-4">
          <CreateCodes onMade={setMade} />
          {made && <MadeCodes codes={made} />}
        </div>
      </SectionCard>
      <SectionCard title={t('admin.codes.title')}>
        <div className="flex flex-col gap-3 px-5 py-4">
          <search>
            <TextField
              label={t('admin.codes.search')}
              hint={t('admin.codes.searchHint')}
              type="search"
              value={typed}
              maxLength={100}
              onChange={(event) => setTyped(event.target.value)}
              adornment={<Search aria-hidden className="size-5 text-slate-400" />}
            />
          </search>
          <ListState
            query={codes}
            isEmpty={() => list.length === 0}
            empty={
              <p className="text-slate-600">{t(q ? 'admin.codes.noMatch' : 'admin.codes.empty')}</p>
            }
          >
            {() => (
              <ul
                className="divide-y divide-slate-100"
                aria-busy={codes.isFetching}
                data-testid="codes"
              >
                {list.map((code) => (
                  <li key={code.code} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
                    <span className="font-mono text-slate-900">{code.code}</span>
                    <span className="text-sm text-slate-700">
                      {t(`admin.codes.status.${code.status}`)}
                      {code.redeemedBy && ` · ${code.redeemedBy}`}
                    </span>
                    <span className="min-w-0 flex-1 text-sm text-slate-500 [overflow-wrap:anywhere]">
                      {format.shortDay(code.createdAt)}
                      {code.note && ` · ${code.note}`}
                    </span>
                    {code.status !== 'revoked' && (
                      <Button variant="secondary" onClick={() => setRevoking(code)}>
                        {t('admin.codes.revoke')}
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </ListState>
          {codes.hasNextPage && (
            <Button
              variant="secondary"
              className="self-start"
              loading={codes.isFetchingNextPage}
              onClick={() => void codes.fetchNextPage()}
            >
              {t('admin.codes.more')}
            </Button>
          )}
        </div>
      </SectionCard>
      <RevokeDialog code={revoking} onClose={() => setRevoking(null)} />
    </>
  )
}

function CreateCodes({ onMade }: { onMade: (codes: string[]) => void }) {
  const { t } = useTranslation()
  const text = useConsoleMessageText()
  const form = useForm({
    resolver: zodResolver(createFormSchema),
    defaultValues: { count: '1', note: '' },
  })
  const { errors } = form.formState
  const { submit, pending } = useFormMutation(form, useCreateCodes(), { messagesAt: 'form' })
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(({ count, note }) => {
        const request = createCodesRequestSchema.safeParse({
          count: Number(count),
          ...(note.trim() ? { note: note.trim() } : {}),
        })
        if (!request.success) {
          form.setError('count', { message: t('admin.codes.countFormat') })
          return
        }
        return submit(request.data, { onSuccess: ({ codes }) => onMade(codes) })
      })}
      className="grid items-start gap-3 sm:grid-cols-[8rem_1fr_auto]"
    >
      <TextField
        label={t('admin.codes.count')}
        inputMode="numeric"
        error={errors.count ? t('admin.codes.countFormat') : undefined}
        {...form.register('count')}
      />
      <TextField
        label={t('admin.codes.note')}
        hint={t('admin.codes.noteHint')}
        maxLength={200}
        error={text(errors.note?.message)}
        {...form.register('note')}
      />
      <Button type="submit" loading={pending} className="sm:mt-6">
        {t('admin.codes.create')}
      </Button>
      <FormAlert message={errors.root?.server?.message} />
    </form>
  )
}

function MadeCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  return (
    <div className="flex flex-col gap-2 rounded-lg bg-brand-50 px-4 py-3">
      <p className="text-sm text-brand-900" role="status">
        {t('admin.codes.made', { count: codes.length })}
      </p>
      <ul className="grid grid-cols-1 gap-1 font-mono sm:grid-cols-3" data-testid="made-codes">
        {codes.map((code) => (
          <li key={code} className="select-all">
            {code}
          </li>
        ))}
      </ul>
      <Button
        variant="secondary"
        className="self-start"
        onClick={() =>
          void navigator.clipboard.writeText(codes.join('\n')).then(
            () => notify('success', t('admin.codes.copied')),
            () => {},
          )
        }
      >
        <Copy aria-hidden className="size-4" />
        {t('admin.codes.copy')}
      </Button>
    </div>
  )
}

function RevokeDialog({ code, onClose }: { code: OperatorCode | null; onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <ConfirmDialog
      open={code !== null}
      onClose={onClose}
      title={t('admin.codes.revokeTitle')}
      effect={
        code?.redeemedBy
          ? t('admin.codes.revokeRedeemed', { code: code.code, email: code.redeemedBy })
          : t('admin.codes.revokeAvailable', { code: code?.code ?? '' })
      }
      submitLabel={t('admin.codes.revokeSubmit')}
      done={t('admin.codes.revoked')}
      action={useRevokeCode()}
      variables={code?.code ?? ''}
    />
  )
}
