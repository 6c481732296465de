import type { FastifyInstance } from 'fastify'
import { PLANS, type Plan } from '../../../../domain/billing'
import type { SandboxGateway } from '../gateway'
import {
  idempotencyKeyOf,
  invalidRequest,
  LIST_PARAMS,
  metadataOf,
  missingResource,
  onlyKnown,
  optionalBoolean,
  optionalHash,
  optionalText,
  pageOf,
  paramsOf,
  requiredInteger,
  requiredText,
  retrieveRoute,
} from './protocol'
import { renderPrice, renderProduct } from './render'

// Products and prices. The sandbox keeps only what the app uses of them: a product named by the
// app, and prices in dollars that say which of our plans they are (metadata[plan]); a price's
// amount never changes, it can only be taken off sale or put back.

export function catalogRoutes(app: FastifyInstance, gateway: SandboxGateway): void {
  retrieveRoute(app, '/v1/products/:id', (id) => gateway.retrieveProduct(id), renderProduct, {
    what: 'product',
    param: 'id',
  })

  app.post('/v1/products', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['id', 'name'])
    // Stripe makes an id when none is given; the app always names its product, so every start
    // finds it again, and the sandbox asks for one.
    const id = requiredText(params, 'id')
    if (!/^[a-z]+_[A-Za-z0-9]+$/.test(id)) {
      throw invalidRequest(
        `The sandbox keeps ids of a prefix, an underscore, then letters and digits: ${id}`,
        { param: 'id' },
      )
    }
    const name = requiredText(params, 'name')
    try {
      const product = await gateway.createProduct(
        { id, name },
        { idempotencyKey: idempotencyKeyOf(request) },
      )
      return renderProduct(product)
    } catch (error) {
      if (await gateway.retrieveProduct(id)) {
        throw invalidRequest('Product already exists.', {
          code: 'resource_already_exists',
          param: 'id',
        })
      }
      throw error
    }
  })

  app.post('/v1/prices', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['product', 'currency', 'unit_amount', 'nickname', 'recurring', 'metadata'])
    const product = requiredText(params, 'product')
    const currency = requiredText(params, 'currency')
    if (currency !== 'usd') {
      throw invalidRequest(`The sandbox takes prices in usd only, not ${currency}.`, {
        param: 'currency',
      })
    }
    const unitAmount = requiredInteger(params, 'unit_amount')
    if (unitAmount < 0) {
      throw invalidRequest('This value must be greater than or equal to 0.', {
        code: 'parameter_invalid_integer',
        param: 'unit_amount',
      })
    }
    const plan = metadataOf(params)?.plan
    if (!plan || !(PLANS as readonly string[]).includes(plan)) {
      throw invalidRequest(
        `The sandbox keeps prices of our plans only: metadata[plan] must be one of ${PLANS.join(', ')}.`,
        { param: 'metadata[plan]' },
      )
    }
    checkRecurring(plan as Plan, optionalHash(params, 'recurring'))
    if (!(await gateway.retrieveProduct(product))) {
      throw invalidRequest(`No such product: '${product}'`, {
        code: 'resource_missing',
        param: 'product',
      })
    }
    const price = await gateway.createPrice(
      {
        product,
        nickname: optionalText(params, 'nickname') ?? '',
        unitAmount,
        currency: 'usd',
        plan: plan as Plan,
      },
      { idempotencyKey: idempotencyKeyOf(request) },
    )
    return renderPrice(price)
  })

  retrieveRoute(app, '/v1/prices/:id', (id) => gateway.retrievePrice(id), renderPrice, {
    what: 'price',
    param: 'price',
  })

  app.post<{ Params: { id: string } }>('/v1/prices/:id', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['active'])
    const active = optionalBoolean(params, 'active')
    if (active === undefined) {
      throw invalidRequest('The sandbox changes only whether a price is active: send active.', {
        code: 'parameter_missing',
        param: 'active',
      })
    }
    const price = await gateway.updatePrice(request.params.id, { active })
    if (!price) throw missingResource('price', request.params.id, 'price')
    return renderPrice(price)
  })

  app.get('/v1/prices', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['product', 'active', ...LIST_PARAMS])
    // The sandbox lists the prices of one product, the way the app asks for them.
    const product = requiredText(params, 'product')
    const active = optionalBoolean(params, 'active')
    const prices = (await gateway.listPrices(product)).filter(
      (price) => active === undefined || price.active === active,
    )
    return pageOf(prices, params, '/v1/prices', renderPrice)
  })
}

/** Whether `recurring` says what the plan is: monthly, or nothing for the one-time plan. */
function checkRecurring(plan: Plan, recurring: Record<string, unknown> | undefined): void {
  if (plan === 'one_payment') {
    if (recurring) {
      throw invalidRequest('A one_payment price is one-time: send no recurring.', {
        param: 'recurring',
      })
    }
    return
  }
  const interval = recurring?.interval
  const count = recurring?.interval_count ?? '1'
  if (interval !== 'month' || count !== '1') {
    throw invalidRequest(
      `A ${plan} price is charged every month: send recurring[interval]=month.`,
      {
        param: 'recurring[interval]',
      },
    )
  }
}
