import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  countriesQuerySchema,
  countriesResponseSchema,
  statesParamsSchema,
  statesResponseSchema,
} from '../../../domain/reference'
import { AppError } from '../../errors'
import { requestLanguage } from '../../i18n'
import { isCountry, listCountries, listStates } from './service'

export const referenceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/countries',
    {
      config: { public: true },
      schema: {
        tags: ['reference'],
        summary: 'Countries for billing addresses, named in the requested language',
        querystring: countriesQuerySchema,
        response: { 200: countriesResponseSchema },
      },
    },
    async (request, reply) => {
      const language = request.query.lang ?? requestLanguage(request)
      reply.header('cache-control', 'public, max-age=86400')
      return { countries: await listCountries(language) }
    },
  )

  app.get(
    '/countries/:country/states',
    {
      config: { public: true },
      schema: {
        tags: ['reference'],
        summary:
          "A country's states, provinces or regions (ISO 3166-2); empty where none are listed",
        params: statesParamsSchema,
        response: { 200: statesResponseSchema },
      },
    },
    async (request, reply) => {
      if (!(await isCountry(request.params.country))) throw new AppError(404, 'errors.notFound')
      reply.header('cache-control', 'public, max-age=86400')
      return { states: await listStates(request.params.country) }
    },
  )
}
