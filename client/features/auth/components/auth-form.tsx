import type { FormEventHandler, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { HumanCheck } from '../../../components/human-check'
import { Button } from '../../../components/ui/button'
import { TextField, type TextFieldProps } from '../../../components/ui/text-field'
import type { HumanCheckState } from '../use-human-check'

/**
 * The form of every sign-in, sign-up and recovery screen: its fields, the human check when the
 * request needs one, and the full-width submit button, which spins while the request runs.
 */
export function AuthForm({
  onSubmit,
  pending,
  submitLabel,
  submitDisabled,
  humanCheck,
  children,
}: {
  onSubmit: FormEventHandler<HTMLFormElement>
  pending: boolean
  submitLabel: string
  submitDisabled?: boolean
  /** The widget's state from `useHumanCheck()`; a new `key` mounts it afresh after a refusal. */
  humanCheck?: Pick<HumanCheckState, 'key' | 'onChange'>
  children: ReactNode
}) {
  return (
    // POST: should the browser send it before the page's code runs (Enter in a form of one
    // field; the submit button waits for the code), nothing typed goes into the address, and
    // the server answers with the page again.
    <form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      {children}
      {humanCheck && <HumanCheck key={humanCheck.key} onChange={humanCheck.onChange} />}
      <Button type="submit" loading={pending} disabled={submitDisabled} className="w-full">
        {submitLabel}
      </Button>
    </form>
  )
}

/** The e-mail address as these forms ask for it, so the browser offers the saved one. */
export function EmailField(
  props: Omit<TextFieldProps, 'label' | 'type' | 'autoComplete' | 'inputMode'>,
) {
  const { t } = useTranslation()
  return (
    <TextField
      label={t('auth.fields.email')}
      type="email"
      autoComplete="email"
      inputMode="email"
      {...props}
    />
  )
}
