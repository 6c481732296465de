// A stand-in for Stripe.js where js.stripe.com cannot be reached (component tests, and Chromium
// in the end-to-end tests, which serve it at Stripe's address): the small part of its API the
// app uses (a card element, createPaymentMethod, handleNextAction), speaking to the Stripe-
// compatible stand-in server as Stripe.js speaks to Stripe: form posts with the publishable key
// in the body, and for the bank's check Stripe's 3-D Secure test page (Complete or Fail), then
// its answer with the intent's client secret. Its field is three plain inputs where Stripe's is
// a frame.
//
// One self-contained function, referring to nothing outside it, so the end-to-end tests can send
// its source to the browser as the script js.stripe.com would send.

type Handler = (event: { complete?: boolean; error?: { message: string } }) => void

interface SetupAnswer {
  status?: string
  payment_method?: string
  last_setup_error?: { code: string; message: string }
  last_payment_error?: { code: string; message: string }
  error?: { code?: string; message: string; type?: string }
}

/** Puts `window.Stripe` in place for pages whose Stripe API is at `apiUrl`. */
export function installStripeJsStandIn(apiUrl: string): void {
  function cardElement() {
    const handlers = new Map<string, Handler[]>()
    const emit = (name: string, event: Parameters<Handler>[0] = {}) => {
      for (const handler of handlers.get(name) ?? []) handler(event)
    }
    const inputs: HTMLInputElement[] = []
    const value = (index: number) => inputs[index]?.value.trim() ?? ''
    return {
      on(name: string, handler: Handler) {
        handlers.set(name, [...(handlers.get(name) ?? []), handler])
      },
      mount(target: HTMLElement) {
        for (const label of ['Card number', 'MM / YY', 'CVC']) {
          const input = document.createElement('input')
          input.setAttribute('aria-label', label)
          input.addEventListener('input', () =>
            emit('change', { complete: inputs.every((field) => field.value.trim() !== '') }),
          )
          inputs.push(input)
          target.append(input)
        }
        queueMicrotask(() => emit('ready'))
      },
      destroy() {
        for (const input of inputs) input.remove()
      },
      /** What was typed, as Stripe's frame sends it to Stripe. */
      card() {
        const [month = '', year = ''] = value(1)
          .split('/')
          .map((part) => part.trim())
        return {
          number: value(0).replaceAll(' ', ''),
          exp_month: month,
          exp_year: year.length === 2 ? `20${year}` : year,
          cvc: value(2),
        }
      },
    }
  }

  /** The bank's 3-D Secure test page, as Stripe shows it over the page: Complete or Fail. */
  function bankPage(): Promise<'complete' | 'fail'> {
    return new Promise((resolve) => {
      const frame = document.createElement('div')
      frame.setAttribute('role', 'dialog')
      frame.setAttribute('aria-label', '3D Secure 2 Test Page')
      frame.style.cssText =
        'position:fixed;inset:20% 10%;z-index:100;background:#fff;border:1px solid #999;padding:24px'
      for (const [label, outcome] of [
        ['Complete', 'complete'],
        ['Fail', 'fail'],
      ] as const) {
        const button = document.createElement('button')
        button.textContent = label
        button.addEventListener('click', () => {
          frame.remove()
          resolve(outcome)
        })
        frame.append(button)
      }
      document.body.append(frame)
    })
  }

  const post = async (path: string, form: Record<string, string>) => {
    const response = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      body: new URLSearchParams(form),
    })
    return (await response.json()) as SetupAnswer & { id?: string }
  }

  const stripe = (publishableKey: string) => ({
    elements: () => ({ create: () => cardElement() }),
    /** The typed card made into a card at Stripe, with the publishable key. */
    async createPaymentMethod({ card }: { type: 'card'; card: ReturnType<typeof cardElement> }) {
      const form: Record<string, string> = { key: publishableKey, type: 'card' }
      for (const [name, part] of Object.entries(card.card())) form[`card[${name}]`] = part
      const answer = await post('/v1/payment_methods', form)
      return answer.error ? { error: answer.error } : { paymentMethod: { id: answer.id } }
    },
    /**
     * The bank's check of a setup or a payment the server confirmed (its secret says which):
     * Stripe's test page, then its answer.
     */
    handleNextAction: ({ clientSecret }: { clientSecret: string }) =>
      check(clientSecret, publishableKey),
    /**
     * A payment confirmed again with its own card (an invoice's charge waiting for the bank's
     * check): here, as at Stripe, that runs the bank's check.
     */
    confirmCardPayment: (clientSecret: string) => check(clientSecret, publishableKey),
  })

  /** Stripe's test page for the bank's check of a setup or a payment, then its answer. */
  async function check(clientSecret: string, publishableKey: string) {
    const id = clientSecret.split('_secret_')[0] ?? ''
    const payment = id.startsWith('pi_')
    const outcome = await bankPage()
    const answer = await post(
      `/v1/${payment ? 'payment_intents' : 'setup_intents'}/${id}/authenticate`,
      { key: publishableKey, client_secret: clientSecret, outcome },
    )
    if (answer.error) return { error: answer.error }
    const failure = payment ? answer.last_payment_error : answer.last_setup_error
    if (answer.status === 'requires_payment_method' && failure) {
      return { error: { ...failure, type: 'card_error' } }
    }
    return payment ? { paymentIntent: answer } : { setupIntent: answer }
  }
  Object.assign(window, { Stripe: stripe })
}
