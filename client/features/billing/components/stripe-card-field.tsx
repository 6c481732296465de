import type { StripeCardElement, StripeElementLocale } from '@stripe/stripe-js'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import type { ProviderCard } from '../api'
import { refusal, stripeFor } from '../stripe-js'

// Stripe's own card field, in Stripe mode only: the number, expiry and security code are typed
// into Stripe's frame and go from the page to Stripe, never to our server. This module (and
// Stripe.js with it) is loaded only by the pages that take a card, and only in Stripe mode.

/** How long Stripe's field may take to show before the page says it could not load. */
const LOAD_TIMEOUT_MS = 20_000

/** Colours of the app's own fields, so Stripe's frame sits among them as one of them. */
const STYLE = {
  base: {
    color: '#0f172a',
    fontFamily: 'system-ui, sans-serif',
    fontSize: '16px',
    '::placeholder': { color: '#94a3b8' },
  },
  invalid: { color: '#b91c1c', iconColor: '#b91c1c' },
}

interface FieldProps {
  publishableKey: string
  /** The card once every part is typed (null until then, and again when it is not). */
  onChange: (card: ProviderCard | null) => void
}

export default function StripeCardField(props: FieldProps) {
  // Try again mounts Stripe's field anew.
  const [tries, setTries] = useState(0)
  return <CardFrame key={tries} {...props} onRetry={() => setTries((count) => count + 1)} />
}

function CardFrame({ publishableKey, onChange, onRetry }: FieldProps & { onRetry: () => void }) {
  const { t, i18n } = useTranslation()
  const locale: StripeElementLocale = i18n.language.startsWith('es') ? 'es' : 'en'
  const mountRef = useRef<HTMLDivElement>(null)
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading')
  const [message, setMessage] = useState<string | null>(null)
  const [focused, setFocused] = useState(false)
  // The latest callback, without mounting Stripe's frame again when the page renders.
  const changed = useRef(onChange)
  changed.current = onChange

  useEffect(() => {
    let card: StripeCardElement | undefined
    let gone = false
    setState('loading')
    // A frame that never answers (a blocked host, a network that hangs) is a failure too.
    const giveUp = window.setTimeout(
      () => setState((now) => (now === 'loading' ? 'failed' : now)),
      LOAD_TIMEOUT_MS,
    )
    stripeFor(publishableKey, locale).then(
      (stripe) => {
        const mount = mountRef.current
        if (gone || !mount) return
        if (!stripe) {
          setState('failed')
          return
        }
        const element = stripe.elements({ locale }).create('card', {
          hidePostalCode: true,
          style: STYLE,
        })
        card = element
        element.on('ready', () => setState('ready'))
        // Stripe's frame blocked or unreachable: say so rather than spin for ever.
        element.on('loaderror', () => setState('failed'))
        element.on('focus', () => setFocused(true))
        element.on('blur', () => setFocused(false))
        element.on('change', (event) => {
          setMessage(event.error?.message ?? null)
          changed.current(
            event.complete
              ? {
                  async createPaymentMethod() {
                    const { paymentMethod, error } = await stripe.createPaymentMethod({
                      type: 'card',
                      card: element,
                    })
                    if (error || !paymentMethod) throw refusal(error, t)
                    return paymentMethod.id
                  },
                  async handleNextAction(clientSecret) {
                    const { error } = await stripe.handleNextAction({ clientSecret })
                    if (error) throw refusal(error, t)
                  },
                }
              : null,
          )
        })
        element.mount(mount)
      },
      () => {
        if (!gone) setState('failed')
      },
    )
    return () => {
      gone = true
      window.clearTimeout(giveUp)
      card?.destroy()
      changed.current(null)
    }
  }, [publishableKey, locale, t])

  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1.5 text-sm font-medium text-slate-700">
        {t('billing.card.details')}
      </legend>
      <div
        data-testid="stripe-card-field"
        className={`min-h-11 rounded-lg bg-white px-3 py-3 ring-1 ${
          focused ? 'ring-2 ring-brand-500' : message ? 'ring-red-400' : 'ring-slate-300'
        }`}
      >
        <div ref={mountRef} />
        {state === 'loading' && (
          <span className="flex items-center gap-2 text-sm text-slate-500">
            <LoaderCircle aria-hidden className="size-4 animate-spin" />
            {t('billing.card.loading')}
          </span>
        )}
      </div>
      {state === 'failed' && (
        <div className="flex flex-wrap items-center gap-3">
          <p role="alert" className="text-sm text-red-700">
            {t('billing.card.unavailable')}
          </p>
          <Button variant="secondary" onClick={onRetry}>
            {t('billing.card.tryAgain')}
          </Button>
        </div>
      )}
      {message && (
        <p role="alert" className="text-sm text-red-700">
          {message}
        </p>
      )}
    </fieldset>
  )
}
