import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { GatewaySubscription } from '../../gateway'
import type { SandboxGateway } from '../gateway'
import {
  expandOf,
  idempotencyKeyOf,
  invalidRequest,
  LIST_PARAMS,
  listPage,
  metadataOf,
  missingResource,
  onlyKnown,
  onlyKnownMetadata,
  optionalBoolean,
  optionalHash,
  type Params,
  paramsOf,
  requiredInteger,
  requiredText,
} from './protocol'
import {
  renderSchedule,
  renderSubscription,
  scheduleIdOf,
  subscriptionIdOfSchedule,
  type WireSubscription,
} from './render'

// Plans. The SUBSCRIPTION is a subscription of a monthly price; FOUR PAYMENTS is a subscription
// schedule of one phase of four months that cancels at its end, as Stripe has no count of
// charges on a subscription any more. The sandbox keeps both as its own subscriptions (FOUR
// PAYMENTS with `cancel_at`), and derives the schedule from its subscription. Each plan's
// invoices are charged to the customer's default card, as Stripe charges a subscription with no
// card of its own, so a card made the default is the card the renewals and retries use.

const METADATA_KEYS = ['plan', 'user_id', 'price_id', 'attempt_id'] as const

function planMetadataOf(params: Params, param: string): GatewaySubscription['metadata'] {
  const metadata = metadataOf(params) ?? {}
  onlyKnownMetadata(metadata, METADATA_KEYS, 'subscription')
  const { plan, user_id, price_id, attempt_id } = metadata
  if ((plan !== 'subscription' && plan !== 'four_payments') || !user_id || !price_id) {
    throw invalidRequest(
      `The sandbox records which plan each subscription is and whose: send ${param}[plan] (subscription or four_payments), ${param}[user_id] and ${param}[price_id].`,
      { code: 'parameter_missing', param },
    )
  }
  return { plan, user_id, price_id, ...(attempt_id ? { attempt_id } : {}) }
}

/** `items[0][price]`: the one price a plan has. */
function onePrice(items: unknown, param: string): string {
  if (!Array.isArray(items) || items.length !== 1) {
    throw invalidRequest(`The sandbox's plans have exactly one item: send ${param}[0][price].`, {
      param,
    })
  }
  const item = items[0]
  if (!item || typeof item !== 'object') throw invalidRequest('Invalid item.', { param })
  onlyKnown(item as Params, ['price'], `${param}[0]`)
  return requiredText(item as Params, 'price', `${param}[0][price]`)
}

/** Pausing and resuming need Stripe's flexible billing mode, so every plan is made in it. */
function requireFlexible(params: Params): void {
  const mode = optionalHash(params, 'billing_mode')
  if (mode) onlyKnown(mode, ['type'], 'billing_mode')
  if (mode?.type !== 'flexible') {
    throw invalidRequest(
      'The sandbox makes plans in the flexible billing mode only, which pausing needs: send billing_mode[type]=flexible.',
      { param: 'billing_mode[type]' },
    )
  }
}

/** The customer's default card, which pays the first invoice. */
async function defaultCardOf(gateway: SandboxGateway, customerId: string): Promise<string> {
  const customer = await gateway.retrieveCustomer(customerId)
  if (!customer) throw missingResource('customer', customerId, 'customer')
  const card = customer.invoice_settings.default_payment_method
  if (!card) {
    throw invalidRequest(
      'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
      { code: 'resource_missing' },
    )
  }
  return card
}

export function subscriptionRoutes(app: FastifyInstance, gateway: SandboxGateway): void {
  async function render(
    subscription: GatewaySubscription,
    expandSchedule: boolean,
  ): Promise<WireSubscription> {
    const priceId = subscription.items.data[0]?.price ?? subscription.metadata.price_id
    const price = await gateway.retrievePrice(priceId)
    if (!price) throw new Error(`The sandbox lost the price ${priceId}.`)
    const schedule = (await gateway.isScheduled(subscription.id))
      ? scheduleIdOf(subscription.id)
      : null
    const rendered = renderSubscription(subscription, { schedule, price })
    return expandSchedule && schedule
      ? { ...rendered, schedule: renderSchedule(subscription, price) }
      : rendered
  }

  async function found(request: FastifyRequest<{ Params: { id: string } }>) {
    const subscription = await gateway.retrieveSubscription(request.params.id)
    if (!subscription) throw missingResource('subscription', request.params.id, 'id')
    return subscription
  }

  app.post('/v1/subscriptions', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, [
      'customer',
      'items',
      'payment_behavior',
      'off_session',
      'billing_mode',
      'metadata',
    ])
    if (params.payment_behavior !== 'allow_incomplete') {
      throw invalidRequest(
        'The sandbox starts a plan as incomplete until its first charge succeeds: send payment_behavior=allow_incomplete.',
        { param: 'payment_behavior' },
      )
    }
    optionalBoolean(params, 'off_session')
    requireFlexible(params)
    const customer = requiredText(params, 'customer')
    const subscription = await gateway.createSubscription(
      {
        customer,
        price: onePrice(params.items, 'items'),
        paymentMethod: await defaultCardOf(gateway, customer),
        installments: null,
        metadata: planMetadataOf(params, 'metadata'),
      },
      { idempotencyKey: idempotencyKeyOf(request) },
    )
    return render(subscription, false)
  })

  app.get<{ Params: { id: string } }>('/v1/subscriptions/:id', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['expand'])
    const expand = expandOf(params, ['schedule'])
    return render(await found(request), expand.has('schedule'))
  })

  app.get('/v1/subscriptions', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['customer', 'status', 'expand', ...LIST_PARAMS])
    // The app reads every plan of a customer, ended ones too.
    if (params.status !== 'all') {
      throw invalidRequest('The sandbox lists every plan of a customer: send status=all.', {
        param: 'status',
      })
    }
    const expand = expandOf(params, ['data.schedule'])
    const all = await gateway.listSubscriptions(requiredText(params, 'customer'))
    const page = listPage(all, params, '/v1/subscriptions')
    const data = await Promise.all(
      page.data.map((subscription) => render(subscription, expand.has('data.schedule'))),
    )
    return { ...page, data }
  })

  app.post<{ Params: { id: string } }>('/v1/subscriptions/:id', async (request) => {
    const params = paramsOf(request)
    if (params.items !== undefined) return movePrice(request)
    onlyKnown(params, ['cancel_at_period_end'])
    const cancelAtPeriodEnd = optionalBoolean(params, 'cancel_at_period_end')
    if (cancelAtPeriodEnd === undefined) {
      throw invalidRequest(
        'The sandbox changes a plan by cancel_at_period_end, or by moving its item to a price.',
        { code: 'parameter_missing', param: 'cancel_at_period_end' },
      )
    }
    const subscription = await found(request)
    return render(await gateway.updateSubscription(subscription.id, { cancelAtPeriodEnd }), false)
  })

  /**
   * An upgrade to FOUR PAYMENTS, first step: the plan's item moves to the monthly price now, its
   * months start again today, and the new price less the unused time is invoiced and charged at
   * once (the schedule that ends it comes next).
   */
  async function movePrice(request: FastifyRequest<{ Params: { id: string } }>) {
    const params = paramsOf(request)
    onlyKnown(params, [
      'items',
      'proration_behavior',
      'billing_cycle_anchor',
      'payment_behavior',
      'metadata',
    ])
    const anchor = optionalHash(params, 'billing_cycle_anchor')
    if (anchor) onlyKnown(anchor, ['type'], 'billing_cycle_anchor')
    if (
      params.proration_behavior !== 'always_invoice' ||
      anchor?.type !== 'now' ||
      params.payment_behavior !== 'allow_incomplete'
    ) {
      throw invalidRequest(
        'The sandbox moves a plan to another price now, invoicing the difference at once: proration_behavior=always_invoice, billing_cycle_anchor[type]=now and payment_behavior=allow_incomplete.',
        { param: 'proration_behavior' },
      )
    }
    const items = params.items
    if (!Array.isArray(items) || items.length !== 1 || typeof items[0] !== 'object') {
      throw invalidRequest(
        "The sandbox moves the plan's one item: send items[0][id] and [price].",
        {
          param: 'items',
        },
      )
    }
    const item = items[0] as Params
    onlyKnown(item, ['id', 'price'], 'items[0]')
    const subscription = await found(request)
    if (requiredText(item, 'id', 'items[0][id]') !== subscription.items.data[0]?.id) {
      throw invalidRequest(`The item is not one of ${subscription.id}.`, { param: 'items[0][id]' })
    }
    const priceId = requiredText(item, 'price', 'items[0][price]')
    const price = await gateway.retrievePrice(priceId)
    if (!price) throw missingResource('price', priceId, 'items[0][price]')
    if (!price.recurring) {
      throw invalidRequest(
        `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
        { param: 'items[0][price]' },
      )
    }
    const metadata = planMetadataOf(params, 'metadata')
    if (metadata.price_id !== price.id || metadata.plan !== price.metadata.plan) {
      throw invalidRequest("The plan's metadata names the price it moves to.", {
        param: 'metadata',
      })
    }
    await gateway.upgradeSubscription(
      subscription.id,
      { price: price.id, installments: null },
      { idempotencyKey: idempotencyKeyOf(request) },
    )
    return render(await found(request), false)
  }

  // Ends a plan now. Nothing is credited or invoiced: a plan is cancelled this way only once the
  // invoice that replaced it (ONE PAYMENT bought as an upgrade) credited its unused time.
  app.delete<{ Params: { id: string } }>('/v1/subscriptions/:id', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['prorate', 'invoice_now'])
    if (
      optionalBoolean(params, 'prorate') !== false ||
      optionalBoolean(params, 'invoice_now') !== false
    ) {
      throw invalidRequest(
        'The sandbox cancels a plan without prorations or a final invoice: prorate=false and invoice_now=false.',
        { param: 'prorate' },
      )
    }
    const subscription = await found(request)
    return render(await gateway.cancelSubscription(subscription.id), false)
  })

  app.post<{ Params: { id: string } }>('/v1/subscriptions/:id/pause', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['type', 'bill_for'])
    if (params.type !== undefined && params.type !== 'subscription') {
      throw invalidRequest('Pausing takes type=subscription.', { param: 'type' })
    }
    // Nothing is credited for the rest of the month paid for: it is used once the plan resumes
    // within it, and after it a new month is charged in full.
    const billFor = optionalHash(params, 'bill_for')
    if (billFor) onlyKnown(billFor, ['unused_time_from'], 'bill_for')
    const from = billFor ? optionalHash(billFor, 'unused_time_from') : undefined
    if (from) onlyKnown(from, ['type'], 'bill_for[unused_time_from]')
    if (from?.type !== 'none') {
      throw invalidRequest(
        'The sandbox credits nothing when a plan pauses: send bill_for[unused_time_from][type]=none.',
        { param: 'bill_for[unused_time_from][type]' },
      )
    }
    const subscription = await found(request)
    return render(await gateway.pauseSubscription(subscription.id), false)
  })

  app.post<{ Params: { id: string } }>('/v1/subscriptions/:id/resume', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['billing_cycle_anchor', 'proration_behavior', 'payment_behavior'])
    // Done as asked, as Stripe does, whatever the customer's clock says: the app reads the
    // clock and chooses (`unchanged` within the month paid for, `now` after it), and a month
    // that ends between its read and this request is Stripe's answer to that choice.
    const anchor = optionalHash(params, 'billing_cycle_anchor')
    if (anchor) onlyKnown(anchor, ['type'], 'billing_cycle_anchor')
    if (anchor?.type !== 'now' && anchor?.type !== 'unchanged') {
      throw invalidRequest('billing_cycle_anchor[type] is now or unchanged.', {
        param: 'billing_cycle_anchor[type]',
      })
    }
    if (params.proration_behavior !== 'none') {
      throw invalidRequest('The sandbox resumes without prorations: proration_behavior=none.', {
        param: 'proration_behavior',
      })
    }
    if (params.payment_behavior !== 'resume_on_payment_success') {
      throw invalidRequest(
        'A plan resumes once its new month is paid: payment_behavior=resume_on_payment_success.',
        { param: 'payment_behavior' },
      )
    }
    const subscription = await found(request)
    return render(
      await gateway.resumeSubscription(subscription.id, { billingCycleAnchor: anchor.type }),
      false,
    )
  })

  app.post('/v1/subscription_schedules', async (request) => {
    const params = paramsOf(request)
    if (params.from_subscription !== undefined) {
      // A schedule for a running plan, to be given its end by an update.
      onlyKnown(params, ['from_subscription'])
      const id = requiredText(params, 'from_subscription')
      const subscription = await gateway.retrieveSubscription(id)
      if (!subscription) throw missingResource('subscription', id, 'from_subscription')
      if (await gateway.isScheduled(id)) {
        throw invalidRequest(
          `You cannot migrate a subscription that is already attached to a schedule: \`${scheduleIdOf(id)}\`.`,
          { param: 'from_subscription' },
        )
      }
      return (await render(await gateway.attachSchedule(id), true)).schedule
    }
    onlyKnown(params, ['customer', 'start_date', 'end_behavior', 'billing_mode', 'phases'])
    if (params.start_date !== 'now' || params.end_behavior !== 'cancel') {
      throw invalidRequest(
        'The sandbox schedules FOUR PAYMENTS only: start_date=now and end_behavior=cancel.',
        { param: params.start_date !== 'now' ? 'start_date' : 'end_behavior' },
      )
    }
    requireFlexible(params)
    const phases = params.phases
    if (!Array.isArray(phases) || phases.length !== 1 || typeof phases[0] !== 'object') {
      throw invalidRequest('The sandbox schedules one phase.', { param: 'phases' })
    }
    const phase = phases[0] as Params
    onlyKnown(phase, ['items', 'duration', 'metadata'], 'phases[0]')
    const duration = optionalHash(phase, 'duration')
    if (!duration) {
      throw invalidRequest('Missing required param: phases[0][duration].', {
        code: 'parameter_missing',
        param: 'phases[0][duration]',
      })
    }
    onlyKnown(duration, ['interval', 'interval_count'], 'phases[0][duration]')
    if (duration.interval !== 'month') {
      throw invalidRequest('The sandbox schedules months.', {
        param: 'phases[0][duration][interval]',
      })
    }
    const months = requiredInteger(
      duration,
      'interval_count',
      'phases[0][duration][interval_count]',
    )
    if (months < 1 || months > 12) {
      throw invalidRequest('The sandbox schedules 1 to 12 months.', {
        param: 'phases[0][duration][interval_count]',
      })
    }
    const customer = requiredText(params, 'customer')
    const subscription = await gateway.createSubscription(
      {
        customer,
        price: onePrice(phase.items, 'phases[0][items]'),
        paymentMethod: await defaultCardOf(gateway, customer),
        installments: months,
        metadata: planMetadataOf(phase, 'phases[0][metadata]'),
      },
      { idempotencyKey: idempotencyKeyOf(request) },
    )
    return (await render(subscription, true)).schedule
  })

  async function foundSchedule(request: FastifyRequest<{ Params: { id: string } }>) {
    const id = subscriptionIdOfSchedule(request.params.id)
    const subscription = id ? await gateway.retrieveSubscription(id) : null
    if (!subscription || !(await gateway.isScheduled(subscription.id))) {
      throw missingResource('subscription_schedule', request.params.id, 'schedule')
    }
    return subscription
  }

  app.get<{ Params: { id: string } }>('/v1/subscription_schedules/:id', async (request) => {
    onlyKnown(paramsOf(request), [])
    return (await render(await foundSchedule(request), true)).schedule
  })

  /**
   * An upgrade to FOUR PAYMENTS, last step: the schedule's one phase keeps the plan as it now is
   * (its price, from its anchor) for that many months, then cancels it.
   */
  app.post<{ Params: { id: string } }>('/v1/subscription_schedules/:id', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['end_behavior', 'proration_behavior', 'phases'])
    if (params.end_behavior !== 'cancel' || params.proration_behavior !== 'none') {
      throw invalidRequest(
        'The sandbox gives a schedule its end only: end_behavior=cancel and proration_behavior=none.',
        { param: 'end_behavior' },
      )
    }
    const subscription = await foundSchedule(request)
    const phases = params.phases
    if (!Array.isArray(phases) || phases.length !== 1 || typeof phases[0] !== 'object') {
      throw invalidRequest('The sandbox schedules one phase.', { param: 'phases' })
    }
    const phase = phases[0] as Params
    onlyKnown(phase, ['items', 'start_date', 'duration', 'metadata'], 'phases[0]')
    if (onePrice(phase.items, 'phases[0][items]') !== subscription.items.data[0]?.price) {
      throw invalidRequest("The phase keeps the plan's price.", { param: 'phases[0][items]' })
    }
    // The phase in progress keeps its start, as Stripe requires of the current phase.
    if (
      requiredInteger(phase, 'start_date', 'phases[0][start_date]') !==
      subscription.billing_cycle_anchor
    ) {
      throw invalidRequest('You can not modify the start date of the current phase.', {
        param: 'phases[0][start_date]',
      })
    }
    const duration = optionalHash(phase, 'duration')
    if (duration) onlyKnown(duration, ['interval', 'interval_count'], 'phases[0][duration]')
    if (duration?.interval !== 'month') {
      throw invalidRequest('The sandbox schedules months.', { param: 'phases[0][duration]' })
    }
    const months = requiredInteger(
      duration,
      'interval_count',
      'phases[0][duration][interval_count]',
    )
    if (months < 1 || months > 12) {
      throw invalidRequest('The sandbox schedules 1 to 12 months.', {
        param: 'phases[0][duration][interval_count]',
      })
    }
    const metadata = planMetadataOf(phase, 'phases[0][metadata]')
    const kept = subscription.metadata
    if (
      metadata.plan !== kept.plan ||
      metadata.user_id !== kept.user_id ||
      metadata.price_id !== kept.price_id
    ) {
      throw invalidRequest("The phase keeps the plan's metadata.", { param: 'phases[0][metadata]' })
    }
    return (await render(await gateway.endScheduleAfter(subscription.id, months), true)).schedule
  })
}
