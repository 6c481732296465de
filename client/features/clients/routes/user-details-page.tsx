import CalendarDays from 'lucide-react/icons/calendar-days'
import ScanFace from 'lucide-react/icons/scan-face'
import Sparkles from 'lucide-react/icons/sparkles'
import UsersRound from 'lucide-react/icons/users-round'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import type { z } from 'zod/mini'
import type { clientFormSchema } from '../../../../domain/client-form'
import type { ClientPhoto, ClientRecord } from '../../../../domain/clients'
import type { Language } from '../../../../domain/i18n'
import { Button } from '../../../components/ui/button'
import { TextAreaField } from '../../../components/ui/text-area-field'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useHeaderSlot } from '../../../lib/header-slot'
import { currentLanguage } from '../../../lib/i18n'
import { lazyResolver } from '../../../lib/lazy-resolver'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useClient, useRecentPhoto, useSaveClient } from '../api'
import { formatBirthDate, parseBirthDate } from '../birth-date'
import { Loading } from '../components/loading'
import { PhotoDialog } from '../components/photo-dialog'
import { RequireAccess } from '../components/require-access'
import { ScanHistory } from '../components/scan-history'
import { writeScanContext } from '../current-client'
import type { clientFormResolver } from '../form-validation'

type ClientFormValues = z.input<typeof clientFormSchema>

// The form is on screen before its validation's code arrives: it loads once the form is shown.
const resolver = lazyResolver<typeof clientFormResolver>(() =>
  import('../form-validation').then((module) => module.clientFormResolver),
)

/** The device's own country, for phone numbers typed without their country code. */
function deviceCountry(): string | undefined {
  try {
    const region = new Intl.Locale(navigator.language).maximize().region
    return region && /^[A-Z]{2}$/.test(region) ? region : undefined
  } catch {
    return undefined
  }
}

/** The id after '#' (spec scans §2: /user-details#{id} preloads a saved client). */
function useHashId(): string | null {
  const { hash } = useLocation()
  const id = decodeURIComponent(hash.replace(/^#/, ''))
  return /^[0-9a-f-]{36}$/i.test(id) ? id.toLowerCase() : null
}

/** /user-details: the client form (spec scans §2 User details, §5 messages). */
export function UserDetailsPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  // On a phone the header button is its icon (its name still read out): with its words it
  // left the page's title no room.
  const actions = useMemo(
    () => (
      <button
        type="button"
        onClick={() => navigate('/aura-user-record')}
        className="flex shrink-0 items-center gap-1 rounded-full p-2 text-sm font-medium hover:bg-white/15 sm:px-3 sm:py-1.5"
      >
        <UsersRound aria-hidden className="size-5 sm:size-4" />
        <span className="sr-only sm:not-sr-only">{t('clients.details.userRecords')}</span>
      </button>
    ),
    [navigate, t],
  )
  useHeaderSlot({ actions })
  return (
    <section className="mx-auto flex w-full max-w-xl flex-col gap-4 px-4 py-6">
      <RequireAccess>
        <ClientDetails />
      </RequireAccess>
    </section>
  )
}

function ClientDetails() {
  const { t } = useTranslation()
  const id = useHashId()
  const client = useClient(id)
  const recent = useRecentPhoto()
  const waiting = (id && client.isPending) || (!id && recent.isPending)
  return (
    <>
      <h1 className="text-2xl font-semibold text-brand-900">
        {client.data
          ? t('clients.details.editHeading', {
              name: `${client.data.firstName} ${client.data.lastName}`,
            })
          : t('clients.details.newHeading')}
      </h1>
      <p className="flex gap-2 text-sm text-slate-600">
        <Sparkles aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-500" />
        {t('clients.details.generated')}
      </p>
      {waiting && <Loading text={t('clients.details.loading')} />}
      {id && client.isError && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-red-800 ring-1 ring-red-200">
          {t('clients.details.notFound')}
        </p>
      )}
      {!waiting && !(id && client.isError) && (
        // A new key per record: the form starts again from what was saved.
        <ClientFormCard
          key={id ?? 'new'}
          id={id}
          record={client.data ?? null}
          recentPhoto={id ? null : (recent.data ?? null)}
        />
      )}
      {id && client.isSuccess && <ScanHistory clientId={id} />}
    </>
  )
}

function initialValues(record: ClientRecord | null, photo: ClientPhoto | null): ClientFormValues {
  return {
    firstName: record?.firstName ?? '',
    lastName: record?.lastName ?? '',
    email: record?.email ?? '',
    phone: record?.phone ?? '',
    phoneCountry: deviceCountry(),
    birthDate: record?.birthDate ?? null,
    affirmation: record?.affirmation ?? '',
    // Left empty until a photo is chosen: the schema then says 'Please select Aura Image'.
    photoNumber: (photo?.number ?? undefined) as number,
    consent: Boolean(record) as true,
  }
}

function ClientFormCard({
  id,
  record,
  recentPhoto,
}: {
  id: string | null
  record: ClientRecord | null
  recentPhoto: ClientPhoto | null
}) {
  const { t } = useTranslation()
  const text = useMessageText()
  const navigate = useNavigate()
  const { notify } = useNotifications()
  const [photo, setPhoto] = useState<ClientPhoto | null>(record?.photo ?? recentPhoto)
  const [dialogOpen, setDialogOpen] = useState(false)
  useEffect(resolver.preload, [])
  const form = useForm<ClientFormValues, unknown, z.output<typeof clientFormSchema>>({
    resolver,
    defaultValues: initialValues(record, photo),
  })
  const { errors } = form.formState
  const { submit, pending } = useFormMutation(form, useSaveClient())
  const country = form.getValues('phoneCountry')
  const countryName = useMemo(() => {
    if (!country) return undefined
    try {
      return new Intl.DisplayNames([currentLanguage()], { type: 'region' }).of(country)
    } catch {
      return country
    }
  }, [country])

  const handleStart = form.handleSubmit((values) =>
    submit(
      { id, form: values },
      {
        onSuccess: (saved) => {
          const name = `${saved.firstName} ${saved.lastName}`
          notify('success', t('clients.details.saved', { name }))
          writeScanContext({
            clientId: saved.id,
            name,
            photoUrl: saved.photo?.url ?? null,
            signature: null,
          })
          navigate('/aura-scan')
        },
      },
    ),
  )

  return (
    <form
      noValidate
      onSubmit={(event) =>
        // The validation's code could not arrive (offline, a new version deployed meanwhile).
        handleStart(event).catch(() => notify('error', t('common.networkError')))
      }
      className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('clients.details.firstName')}
          autoComplete="off"
          error={text(errors.firstName?.message)}
          {...form.register('firstName')}
        />
        <TextField
          label={t('clients.details.lastName')}
          autoComplete="off"
          error={text(errors.lastName?.message)}
          {...form.register('lastName')}
        />
      </div>
      <TextField
        label={t('clients.details.email')}
        type="email"
        inputMode="email"
        autoComplete="off"
        error={text(errors.email?.message)}
        {...form.register('email')}
      />
      <TextField
        label={t('clients.details.phone')}
        type="tel"
        inputMode="tel"
        autoComplete="off"
        hint={
          countryName
            ? t('clients.details.phoneHint', { country: countryName })
            : t('clients.details.phoneHintNoCountry')
        }
        error={text(errors.phone?.message)}
        {...form.register('phone')}
      />
      <BirthDateField
        value={form.watch('birthDate') ?? null}
        onChange={(value) =>
          form.setValue('birthDate', value, { shouldValidate: form.formState.isSubmitted })
        }
        error={text(errors.birthDate?.message)}
      />
      <TextAreaField
        label={t('clients.details.affirmation')}
        rows={3}
        error={text(errors.affirmation?.message)}
        {...form.register('affirmation')}
      />

      <fieldset className="flex flex-col gap-3 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
        <legend className="sr-only">{t('clients.details.photo')}</legend>
        <div className="flex items-center gap-4">
          {photo ? (
            <img
              src={photo.url}
              alt={t('clients.photoDialog.preview')}
              className="size-20 rounded-full object-cover ring-2 ring-white shadow"
              data-testid="form-photo"
            />
          ) : (
            <span className="flex size-20 items-center justify-center rounded-full bg-white text-slate-400 ring-1 ring-slate-200">
              <ScanFace aria-hidden className="size-9" />
            </span>
          )}
          <div className="flex flex-1 flex-col gap-1 text-sm text-slate-700">
            <span className="font-medium text-slate-900">{t('clients.details.photo')}</span>
            {photo
              ? !record && recentPhoto?.number === photo.number && t('clients.details.recentPhoto')
              : t('clients.details.noPhoto')}
          </div>
        </div>
        <Button variant="secondary" onClick={() => setDialogOpen(true)}>
          <ScanFace aria-hidden className="size-4" />
          {t('clients.details.analyze')}
        </Button>
        {errors.photoNumber?.message && (
          <p role="alert" className="text-sm text-red-700">
            {text(errors.photoNumber.message)}
          </p>
        )}
      </fieldset>
      <PhotoDialog
        open={dialogOpen}
        onOpenChange={setDialogOpen}
        photo={photo}
        onPhoto={(stored) => {
          setPhoto(stored)
          form.setValue('photoNumber', stored.number, {
            shouldValidate: form.formState.isSubmitted,
          })
        }}
      />

      <label className="flex items-start gap-3 text-sm text-slate-700">
        <input
          type="checkbox"
          className="mt-0.5 size-5 shrink-0 accent-brand-600"
          aria-invalid={errors.consent ? true : undefined}
          {...form.register('consent')}
        />
        <span>{t('clients.details.consent')}</span>
      </label>
      {errors.consent?.message && (
        <p role="alert" className="-mt-2 text-sm text-red-700">
          {text(errors.consent.message)}
        </p>
      )}

      {/* From the click: the validation's code may still be arriving (lazyResolver). */}
      <Button type="submit" loading={pending || form.formState.isSubmitting} className="self-end">
        {t('clients.details.start')}
      </Button>
    </form>
  )
}

/**
 * The birth date typed in the language's order (month/day/year or day/month/year), with a
 * calendar beside it. The form holds YYYY-MM-DD, null when empty, or what was typed when it
 * cannot be read (which the shared schema then refuses with its message).
 */
function BirthDateField({
  value,
  onChange,
  error,
}: {
  value: string | null
  onChange: (value: string | null) => void
  error: string
}) {
  const { t } = useTranslation()
  const language = currentLanguage() as Language
  const readable = (iso: string | null) =>
    iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? formatBirthDate(iso, language) : (iso ?? '')
  const [typed, setTyped] = useState(readable(value))
  const picker = useRef<HTMLInputElement>(null)
  const pickerId = useId()

  // A date picked on the calendar shows in the text field.
  useEffect(() => {
    if (value && /^\d{4}-\d{2}-\d{2}$/.test(value)) setTyped(formatBirthDate(value, language))
  }, [value, language])

  const handleType = (next: string) => {
    setTyped(next)
    onChange(next.trim() === '' ? null : (parseBirthDate(next, language) ?? next))
  }

  return (
    <div className="flex items-end gap-2">
      <TextField
        className="flex-1"
        label={t('clients.details.birthDate')}
        hint={t('clients.details.birthDateHint')}
        placeholder={t('clients.details.birthDatePattern')}
        inputMode="numeric"
        autoComplete="off"
        value={typed}
        onChange={(event) => handleType(event.target.value)}
        error={error}
      />
      <div className="relative mb-7">
        <label htmlFor={pickerId} className="sr-only">
          {t('clients.details.openCalendar')}
        </label>
        <input
          id={pickerId}
          ref={picker}
          type="date"
          max={new Date().toISOString().slice(0, 10)}
          min="1900-01-01"
          value={value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : ''}
          onChange={(event) => onChange(event.target.value || null)}
          className="absolute inset-0 size-full cursor-pointer opacity-0"
          data-testid="birth-date-picker"
        />
        <span
          aria-hidden
          className="flex size-11 items-center justify-center rounded-lg border border-slate-300 bg-white text-brand-700"
        >
          <CalendarDays className="size-5" />
        </span>
      </div>
    </div>
  )
}
