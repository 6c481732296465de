import type { UseMutationResult } from '@tanstack/react-query'
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { ApiError } from './api-client'
import { useNotifications } from './notifications'

// The one way a form talks to the server (docs/decisions/0006-one-way-to-submit-a-form.md):
// react-hook-form validates with the shared schema, a TanStack Query mutation from the
// feature's api.ts sends it, and this hook shows what the server refused.

/**
 * Where a form shows a message that belongs to none of its fields: the shared snackbar (pages),
 * inside the form as `errors.root.server` (dialogs: a modal hides the snackbar from assistive
 * technology and, full-screen on a phone, from sight), or under its one field.
 */
export type MessagePlace<TValues extends FieldValues> = 'snackbar' | 'form' | Path<TValues>

export interface ServerErrorText {
  /** The reason to show; the first refused field's when the server named fields. */
  message: string
  /** Refused fields by their name in the request body. */
  fields: { name: string; message: string }[]
}

/**
 * What a failed submission says, in the user's language. The server already answers in it
 * (Accept-Language); only a failure with no answer needs our own words, `networkText`.
 */
export function readServerError(error: unknown, networkText: string): ServerErrorText {
  if (!(error instanceof ApiError) || error.status === 0)
    return { message: networkText, fields: [] }
  const fields = error.issues.map((issue) => ({
    name: issue.field.replace(/^body\./, ''),
    message: issue.message,
  }))
  return { message: fields[0]?.message ?? (error.message || networkText), fields }
}

export interface SubmitHandlers<TData> {
  onSuccess?: (data: TData) => void
  /** Deals with a refusal itself; return true and the usual message is not shown. */
  onError?: (error: unknown) => boolean | undefined
}

/**
 * Ties a form to its mutation. `submit` sends the variables and, on a refusal, puts the
 * server's field reasons on the form's fields and its message at `messagesAt`. A success
 * clears the snackbar first: whatever it said (a wrong code, being offline) no longer holds, and
 * must not follow the person to the next page.
 */
export function useFormMutation<TValues extends FieldValues, TContext, TOutput, TVariables, TData>(
  form: UseFormReturn<TValues, TContext, TOutput>,
  mutation: UseMutationResult<TData, Error, TVariables>,
  { messagesAt = 'snackbar' }: { messagesAt?: MessagePlace<TValues> } = {},
) {
  const { t } = useTranslation()
  const { notify, clear } = useNotifications()

  /** Shows a message about the whole form where this form shows them. */
  const showMessage = (message: string) => {
    if (messagesAt === 'snackbar') notify('error', message)
    else form.setError(messagesAt === 'form' ? 'root.server' : messagesAt, { message })
  }

  const showError = (error: unknown) => {
    const { message, fields } = readServerError(error, t('common.networkError'))
    const values = form.getValues()
    for (const field of fields) {
      if (field.name in values)
        form.setError(field.name as Path<TValues>, { message: field.message })
    }
    showMessage(message)
  }

  // mutateAsync rather than mutate's callbacks: those are dropped when the component unmounts,
  // and a successful sign-in unmounts the login page before they would run.
  const submit = async (variables: TVariables, handlers: SubmitHandlers<TData> = {}) => {
    let data: TData
    try {
      data = await mutation.mutateAsync(variables)
    } catch (error) {
      if (handlers.onError?.(error) !== true) showError(error)
      return
    }
    clear()
    handlers.onSuccess?.(data)
  }

  return { submit, pending: mutation.isPending, showMessage }
}
