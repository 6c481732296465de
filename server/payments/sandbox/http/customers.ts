import type { FastifyInstance } from 'fastify'
import type { GatewayAddress, GatewayCustomer } from '../../gateway'
import type { SandboxGateway } from '../gateway'
import {
  idempotencyKeyOf,
  invalidRequest,
  metadataOf,
  missingResource,
  onlyKnown,
  optionalHash,
  optionalText,
  orNull,
  type Params,
  paramsOf,
} from './protocol'
import { renderCustomer } from './render'

// Customers: the paying person, with the billing information and the default card. The sandbox
// traces every customer to one of our users (metadata[user_id]), as the app always does. A
// customer made with `test_clock` lives on that clock's time (test-clocks.ts).

const ADDRESS_FIELDS = ['line1', 'line2', 'city', 'state', 'postal_code', 'country'] as const

/** `address[…]` as the sandbox keeps an address; a field sent empty is cleared. */
function addressOf(params: Params): GatewayAddress | undefined {
  if (params.address === '') {
    throw invalidRequest('The sandbox cannot clear an address; send its fields instead.', {
      param: 'address',
    })
  }
  const address = optionalHash(params, 'address')
  if (!address) return undefined
  onlyKnown(address, ADDRESS_FIELDS, 'address')
  const field = (name: (typeof ADDRESS_FIELDS)[number]) =>
    orNull(optionalText(address, name)) ?? null
  return {
    line1: field('line1') ?? '',
    line2: field('line2'),
    city: field('city'),
    state: field('state'),
    postal_code: field('postal_code') ?? '',
    country: field('country') ?? '',
  }
}

export function customerRoutes(app: FastifyInstance, gateway: SandboxGateway): void {
  /** The customer with the test clock it lives on, which the contract's customer leaves out. */
  const render = async (customer: GatewayCustomer) =>
    renderCustomer(customer, await gateway.testClockOf(customer.id))

  app.post('/v1/customers', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['email', 'name', 'metadata', 'test_clock'])
    const testClock = optionalText(params, 'test_clock')
    if (testClock !== undefined && !(await gateway.retrieveTestClock(testClock))) {
      throw missingResource('test_clock', testClock, 'test_clock')
    }
    const userId = metadataOf(params)?.user_id
    if (!userId) {
      throw invalidRequest(
        'The sandbox traces each customer to one of our users: send metadata[user_id].',
        { code: 'parameter_missing', param: 'metadata[user_id]' },
      )
    }
    const customer = await gateway.createCustomer(
      {
        email: optionalText(params, 'email') ?? '',
        name: optionalText(params, 'name') ?? '',
        userId,
        ...(testClock ? { testClock } : {}),
      },
      { idempotencyKey: idempotencyKeyOf(request) },
    )
    return render(customer)
  })

  app.get<{ Params: { id: string } }>('/v1/customers/:id', async (request) => {
    onlyKnown(paramsOf(request), [])
    const customer = await gateway.retrieveCustomer(request.params.id)
    if (!customer) throw missingResource('customer', request.params.id, 'id')
    return render(customer)
  })

  // Stripe answers a deleted customer's id with `deleted: true` from then on; the sandbox
  // answers resource_missing, which the SDK's callers read the same way (no customer).
  app.delete<{ Params: { id: string } }>('/v1/customers/:id', async (request) => {
    onlyKnown(paramsOf(request), [])
    const { id } = request.params
    if (!(await gateway.retrieveCustomer(id))) throw missingResource('customer', id, 'id')
    await gateway.deleteCustomer(id)
    return { id, object: 'customer', deleted: true }
  })

  app.post<{ Params: { id: string } }>('/v1/customers/:id', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['email', 'name', 'address', 'invoice_settings'])
    const settings = optionalHash(params, 'invoice_settings')
    if (settings) onlyKnown(settings, ['default_payment_method'], 'invoice_settings')
    const defaultPaymentMethod = settings
      ? orNull(optionalText(settings, 'default_payment_method'))
      : undefined
    const customer = await gateway.updateCustomer(request.params.id, {
      email: optionalText(params, 'email'),
      name: optionalText(params, 'name'),
      address: addressOf(params),
      defaultPaymentMethod,
    })
    return render(customer)
  })
}
