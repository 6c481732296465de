import { zodResolver } from '@hookform/resolvers/zod'
import { type UseMutationResult, useQuery, useQueryClient } from '@tanstack/react-query'
import Copy from 'lucide-react/icons/copy'
import ShieldCheck from 'lucide-react/icons/shield-check'
import { type ReactNode, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { factorCodeRequestSchema, factorSetUpRequestSchema } from '../../../../domain/operators'
import { Button } from '../../../components/ui/button'
import { FullScreenSpinner } from '../../../components/ui/full-screen-spinner'
import { PasswordField } from '../../../components/ui/password-field'
import { SectionCard } from '../../../components/ui/section-card'
import { TextField } from '../../../components/ui/text-field'
import { ApiError } from '../../../lib/api-client'
import { useFormMutation } from '../../../lib/form-mutation'
import { useNotifications } from '../../../lib/notifications'
import { factorStatusQuery, useConfirmSetUp, useStartSetUp, useVerifyFactor } from '../api'
import { Console } from '../components/console'
import { QrCode } from '../components/qr-code'
import { useConsoleMessageText } from '../messages'

export { adminTextsReady } from '../texts'

/**
 * The operator's console. It opens once the second factor is passed in this session: set up
 * on the first visit (a key to scan, a code to confirm, recovery codes to keep), a code on every
 * later sign-in (ADR 0029). Anyone but an operator is told it is not for them.
 */
export function AdminPage() {
  const { t } = useTranslation()
  const status = useQuery(factorStatusQuery)
  if (status.isPending) return <FullScreenSpinner />
  if (status.isError) {
    const refused = status.error instanceof ApiError && status.error.status === 403
    return (
      <Frame>
        <p className="text-slate-700" data-testid="admin-refused">
          {refused ? status.error.message : t('admin.loadError')}
        </p>
        {!refused && (
          <Button className="mt-4 self-start" onClick={() => void status.refetch()}>
            {t('admin.retry')}
          </Button>
        )}
      </Frame>
    )
  }
  if (!status.data.enrolled) return <SetUp />
  if (!status.data.passed) return <Verify />
  return (
    <Frame>
      <Console />
    </Frame>
  )
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <section className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-6">{children}</section>
  )
}

/** Copies `text` and says so; a browser that refuses leaves the text on screen to select. */
function CopyButton({ text, label, done }: { text: string; label: string; done: string }) {
  const { notify } = useNotifications()
  return (
    <Button
      variant="secondary"
      onClick={() =>
        void navigator.clipboard.writeText(text).then(
          () => notify('success', done),
          () => {},
        )
      }
    >
      <Copy aria-hidden className="size-4" />
      {label}
    </Button>
  )
}

/** A code field, with the shared schema's rule and the server's reason under it. */
function CodeForm({
  label,
  submitLabel,
  send,
}: {
  label: string
  submitLabel: string
  send: UseMutationResult<unknown, Error, { code: string }>
}) {
  const text = useConsoleMessageText()
  const form = useForm({
    resolver: zodResolver(factorCodeRequestSchema),
    defaultValues: { code: '' },
  })
  const { submit, pending } = useFormMutation(form, send, { messagesAt: 'code' })
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((values) => submit(values))}
      className="flex flex-wrap items-start gap-3"
    >
      <TextField
        label={label}
        autoComplete="one-time-code"
        autoCapitalize="characters"
        spellCheck={false}
        error={text(form.formState.errors.code?.message)}
        className="min-w-0 flex-[1_1_14rem]"
        {...form.register('code')}
      />
      <Button type="submit" loading={pending} className="mt-6">
        {submitLabel}
      </Button>
    </form>
  )
}

/** The password again, before a new key is made (a session alone must not enrol a phone). */
function PasswordForm({ send }: { send: ReturnType<typeof useStartSetUp> }) {
  const { t } = useTranslation()
  const text = useConsoleMessageText()
  const form = useForm({
    resolver: zodResolver(factorSetUpRequestSchema),
    defaultValues: { password: '' },
  })
  const { submit, pending } = useFormMutation(form, send, { messagesAt: 'password' })
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((values) => submit(values))}
      className="flex flex-wrap items-start gap-3"
    >
      <PasswordField
        label={t('admin.factor.passwordLabel')}
        hint={t('admin.factor.passwordHint')}
        autoComplete="current-password"
        error={text(form.formState.errors.password?.message)}
        className="min-w-0 flex-[1_1_14rem]"
        {...form.register('password')}
      />
      <Button type="submit" loading={pending} className="mt-6">
        {t('admin.factor.continue')}
      </Button>
    </form>
  )
}

function SetUp() {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const start = useStartSetUp()
  const confirm = useConfirmSetUp()
  const [kept, setKept] = useState(false)
  const [asked, setAsked] = useState(false)
  const codes = confirm.data?.recoveryCodes
  if (codes) {
    return (
      <Frame>
        <SectionCard title={t('admin.factor.recoveryTitle')}>
          <div className="flex flex-col gap-4 px-5 py-4">
            <p className="text-slate-700">{t('admin.factor.recoveryIntro')}</p>
            <ol
              className="grid grid-cols-2 gap-2 font-mono text-base tracking-wider sm:grid-cols-5"
              data-testid="recovery-codes"
            >
              {codes.map((code) => (
                <li key={code} className="rounded bg-slate-100 px-2 py-1 text-center">
                  {code}
                </li>
              ))}
            </ol>
            <div className="flex flex-wrap gap-3">
              <CopyButton
                text={codes.join('\n')}
                label={t('admin.factor.copyCodes')}
                done={t('admin.factor.codesCopied')}
              />
              <Button
                loading={kept}
                onClick={() => {
                  setKept(true)
                  void queryClient.invalidateQueries({ queryKey: factorStatusQuery.queryKey })
                }}
              >
                {t('admin.factor.saved')}
              </Button>
            </div>
          </div>
        </SectionCard>
      </Frame>
    )
  }
  const key = start.data
  return (
    <Frame>
      <SectionCard title={t('admin.factor.setUpTitle')}>
        <div className="flex flex-col gap-4 px-5 py-4">
          <p className="text-slate-700">{t('admin.factor.setUpIntro')}</p>
          {!key ? (
            asked ? (
              <PasswordForm send={start} />
            ) : (
              <Button className="self-start" onClick={() => setAsked(true)}>
                <ShieldCheck aria-hidden className="size-5" />
                {t('admin.factor.start')}
              </Button>
            )
          ) : (
            <>
              <p className="font-medium text-slate-900">{t('admin.factor.scan')}</p>
              <QrCode text={key.uri} label={t('admin.factor.qrLabel')} />
              <p className="text-sm text-slate-700">{t('admin.factor.cannotScan')}</p>
              <p
                className="font-mono text-base tracking-wider break-all text-slate-900 select-all"
                data-testid="factor-key"
              >
                {key.secret.replace(/(.{4})/g, '$1 ').trim()}
              </p>
              <div>
                <CopyButton
                  text={key.secret}
                  label={t('admin.factor.copyKey')}
                  done={t('admin.factor.keyCopied')}
                />
              </div>
              <CodeForm
                label={t('admin.factor.codeLabel')}
                submitLabel={t('admin.factor.confirm')}
                send={confirm}
              />
            </>
          )}
        </div>
      </SectionCard>
    </Frame>
  )
}

function Verify() {
  const { t } = useTranslation()
  return (
    <Frame>
      <SectionCard title={t('admin.factor.verifyTitle')}>
        <div className="flex flex-col gap-4 px-5 py-4">
          <p className="text-slate-700">{t('admin.factor.verifyIntro')}</p>
          <CodeForm
            label={t('admin.factor.verifyLabel')}
            submitLabel={t('admin.factor.verify')}
            send={useVerifyFactor()}
          />
        </div>
      </SectionCard>
    </Frame>
  )
}
