import { zodResolver } from '@hookform/resolvers/zod'
import Info from 'lucide-react/icons/info'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import type { z } from 'zod/mini'
import { billingInfoRequestSchema } from '../../../../domain/billing'
import { ourZodMessages } from '../../../../domain/messages'
import { Button } from '../../../components/ui/button'
import { SelectField } from '../../../components/ui/select-field'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { currentLanguage } from '../../../lib/i18n'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useSession } from '../../../lib/session'
import { useBillingAccount, useCountries, useSaveBillingInfo, useStates } from '../api'
import { SandboxNotice } from '../components/sandbox-notice'

type BillingInfoValues = z.input<typeof billingInfoRequestSchema>

/** /modify-billing-info: the two notices, then the billing form (spec core §2 and §3). */
export function ModifyBillingInfoPage() {
  const { t } = useTranslation()
  const { user } = useSession()
  const account = useBillingAccount()
  // What was saved before, else the member's own name and address as a start. The form appears
  // once that is known, so nothing typed is ever replaced by it.
  const saved = account.data?.billingInfo
  const initial: BillingInfoValues = {
    name: saved?.name ?? user?.name ?? '',
    email: saved?.email ?? user?.email ?? '',
    line1: saved?.line1 ?? '',
    line2: saved?.line2 ?? '',
    city: saved?.city ?? '',
    state: saved?.state ?? '',
    postalCode: saved?.postalCode ?? '',
    country: saved?.country ?? '',
  }
  return (
    <section className="mx-auto flex w-full max-w-lg flex-col gap-4 px-4 py-6">
      <h1 className="text-2xl font-semibold text-brand-900">{t('billing.info.heading')}</h1>
      <SandboxNotice sandbox={account.data?.sandbox} />
      <ul className="flex flex-col gap-2" data-testid="billing-notices">
        {[t('billing.info.effectiveNextInvoice'), t('billing.info.brexit')].map((notice) => (
          <li
            key={notice}
            className="flex gap-2 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900 ring-1 ring-brand-100"
          >
            <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-600" />
            {notice}
          </li>
        ))}
      </ul>
      {account.isPending && (
        <p className="text-sm text-slate-500" aria-busy="true">
          {t('billing.info.loading')}
        </p>
      )}
      {account.isError && <p className="text-sm text-red-700">{t('common.networkError')}</p>}
      {account.isSuccess && <BillingInfoForm initial={initial} />}
    </section>
  )
}

function BillingInfoForm({ initial }: { initial: BillingInfoValues }) {
  const { t } = useTranslation()
  const text = useMessageText()
  const navigate = useNavigate()
  const { notify } = useNotifications()
  const countries = useCountries(currentLanguage())
  const form = useForm({
    resolver: zodResolver(billingInfoRequestSchema, ourZodMessages),
    defaultValues: initial,
  })
  const { errors } = form.formState
  const country = form.watch('country')
  const states = useStates(country)
  const stateOptions = (country ? (states.data?.states ?? []) : []).map((state) => ({
    value: state.name,
    label: state.name,
  }))
  // A state belongs to its country: after the country changes, or when a saved state is not on
  // the list, the choice starts again instead of sending a state the server would refuse.
  useEffect(() => {
    const listed = states.data?.states
    const current = form.getValues('state')
    if (listed && current && !listed.some((state) => state.name === current)) {
      form.setValue('state', '')
    }
  }, [states.data, form])
  const { submit, pending } = useFormMutation(form, useSaveBillingInfo())

  const handleSave = form.handleSubmit((values) =>
    submit(values, {
      onSuccess: () => {
        notify('success', t('billing.info.saved'))
        navigate('/my-account')
      },
    }),
  )

  return (
    <form
      noValidate
      onSubmit={handleSave}
      className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <TextField
        label={t('billing.info.name')}
        autoComplete="billing name"
        error={text(errors.name?.message)}
        {...form.register('name')}
      />
      <TextField
        label={t('billing.info.email')}
        type="email"
        inputMode="email"
        autoComplete="billing email"
        error={text(errors.email?.message)}
        {...form.register('email')}
      />
      <TextField
        label={t('billing.info.line1')}
        autoComplete="billing address-line1"
        error={text(errors.line1?.message)}
        {...form.register('line1')}
      />
      <TextField
        label={t('billing.info.line2')}
        autoComplete="billing address-line2"
        error={text(errors.line2?.message)}
        {...form.register('line2')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('billing.info.city')}
          autoComplete="billing address-level2"
          error={text(errors.city?.message)}
          {...form.register('city')}
        />
        <TextField
          label={t('billing.info.postalCode')}
          autoComplete="billing postal-code"
          error={text(errors.postalCode?.message)}
          {...form.register('postalCode')}
        />
        <SelectField
          label={t('billing.info.country')}
          autoComplete="billing country"
          placeholder={t('billing.info.chooseCountry')}
          options={(countries.data?.countries ?? []).map((option) => ({
            value: option.code,
            label: option.name,
          }))}
          error={text(errors.country?.message)}
          {...form.register('country')}
        />
        {stateOptions.length > 0 && (
          <SelectField
            label={t('billing.info.state')}
            autoComplete="billing address-level1"
            placeholder={t('billing.info.chooseState')}
            options={stateOptions}
            error={text(errors.state?.message)}
            {...form.register('state')}
          />
        )}
      </div>
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={() => navigate('/my-account')}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={pending}>
          {t('common.save')}
        </Button>
      </div>
    </form>
  )
}
