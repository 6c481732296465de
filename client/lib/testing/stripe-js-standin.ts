// A stand-in for Stripe.js in component tests, where js.stripe.com cannot be reached: the small
// part of its API the app uses (a card element, confirmCardSetup), speaking to the Stripe-
// compatible stand-in server as Stripe.js speaks to Stripe: form posts with the publishable key
// in the body and the intent's client secret. loadStripe finds it on `window.Stripe` and loads
// no script. Its field is three plain inputs where Stripe's is a frame.

type Handler = (event: { complete?: boolean; error?: { message: string } }) => void

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

interface SetupAnswer {
  status?: string
  payment_method?: string
  last_setup_error?: { code: string; message: string }
  error?: { code?: string; message: string; type?: string }
}

/** The bank's 3-D Secure test page, as Stripe shows it over the page: Complete or Fail. */
function bankPage(): Promise<'complete' | 'fail'> {
  return new Promise((resolve) => {
    const frame = document.createElement('div')
    frame.setAttribute('role', 'dialog')
    frame.setAttribute('aria-label', '3D Secure 2 Test Page')
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

/** `window.Stripe` for pages whose Stripe API is at `apiUrl`. */
export function stripeJsStandIn(apiUrl: string) {
  return (publishableKey: string) => ({
    elements: () => ({ create: () => cardElement() }),
    async confirmCardSetup(
      clientSecret: string,
      { payment_method }: { payment_method: { card: ReturnType<typeof cardElement> } },
    ) {
      const id = clientSecret.split('_secret_')[0]
      const body = new URLSearchParams({
        key: publishableKey,
        client_secret: clientSecret,
        'payment_method_data[type]': 'card',
      })
      for (const [name, part] of Object.entries(payment_method.card.card())) {
        body.set(`payment_method_data[card][${name}]`, part)
      }
      const post = async (path: string, form: URLSearchParams) => {
        const response = await fetch(`${apiUrl}/v1/setup_intents/${id}/${path}`, {
          method: 'POST',
          body: form,
        })
        return (await response.json()) as SetupAnswer
      }
      let answer = await post('confirm', body)
      if (!answer.error && answer.status === 'requires_action') {
        // Stripe.js shows the bank's page in a frame of its own; Stripe's test page has two
        // buttons, and so has this one.
        const outcome = await bankPage()
        answer = await post(
          'authenticate',
          new URLSearchParams({ key: publishableKey, client_secret: clientSecret, outcome }),
        )
        if (!answer.error && answer.status !== 'succeeded' && answer.last_setup_error) {
          answer = { error: { ...answer.last_setup_error, type: 'card_error' } }
        }
      }
      return answer.error ? { error: answer.error } : { setupIntent: answer }
    },
  })
}
