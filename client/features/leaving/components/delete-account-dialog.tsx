import { zodResolver } from '@hookform/resolvers/zod'
import { useQueryClient } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { isLanguage } from '../../../../domain/i18n'
import {
  DELETE_WORDS,
  deleteAccountRequestSchema,
  isDeleteWord,
  KEPT_INVOICE_YEARS,
} from '../../../../domain/leaving'
import { LOGIN_PATH } from '../../../../domain/routes'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { FormAlert } from '../../../components/ui/form-alert'
import { PasswordField } from '../../../components/ui/password-field'
import { TextField } from '../../../components/ui/text-field'
import { forgetEarly } from '../../../lib/api-client'
import { useFormMutation } from '../../../lib/form-mutation'
import { clearLocalData } from '../../../lib/local-data'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { sessionQueryKey } from '../../../lib/session'
import { useDeleteAccount } from '../api'

/** "Delete my account": what it does, then the password and the typed word. */
export function DeleteAccountDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('leaving.delete.title')}>
      {/* Inside the dialog's content, so every opening starts from an empty form. */}
      <DeleteAccountForm onCancel={() => onOpenChange(false)} />
    </Dialog>
  )
}

function DeleteAccountForm({ onCancel }: { onCancel: () => void }) {
  const { t, i18n } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  // The word of the language the dialog is shown in: the server checks the same one.
  const language = isLanguage(i18n.language) ? i18n.language : 'en'
  const word = DELETE_WORDS[language]
  const form = useForm({
    resolver: zodResolver(deleteAccountRequestSchema),
    defaultValues: { password: '', word: '' },
  })
  const { errors } = form.formState
  const { submit, pending } = useFormMutation(form, useDeleteAccount(), { messagesAt: 'form' })
  const values = form.watch()
  const ready = values.password !== '' && isDeleteWord(values.word, language)

  const handleDelete = form.handleSubmit((body) =>
    submit(body, {
      onSuccess: () => {
        // As signing out does: nothing of the account stays on this device either.
        clearLocalData()
        forgetEarly()
        queryClient.clear()
        queryClient.setQueryData(sessionQueryKey, { user: null })
        notify('success', t('leaving.delete.done'))
        void navigate(LOGIN_PATH, { replace: true })
      },
    }),
  )

  return (
    <form noValidate onSubmit={handleDelete} className="flex flex-col gap-4">
      <ul className="flex list-disc flex-col gap-2 pl-5 text-sm text-slate-700">
        <li>{t('leaving.delete.plan')}</li>
        <li>{t('leaving.delete.data')}</li>
        <li>{t('leaving.delete.invoices', { years: KEPT_INVOICE_YEARS })}</li>
        <li>{t('leaving.delete.copy')}</li>
      </ul>
      <PasswordField
        label={t('leaving.delete.password')}
        autoComplete="current-password"
        error={text(errors.password?.message)}
        {...form.register('password')}
      />
      <TextField
        label={t('leaving.delete.word', { word })}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        error={text(errors.word?.message)}
        {...form.register('word')}
      />
      <FormAlert message={errors.root?.server?.message} />
      <div className="mt-2 flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="danger" loading={pending} disabled={!ready}>
          {t('leaving.delete.submit')}
        </Button>
      </div>
    </form>
  )
}
