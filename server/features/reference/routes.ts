import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { countriesQuerySchema, countriesResponseSchema } from '../../../domain/reference'
import { requestLanguage } from '../../i18n'
import { listCountries } from './service'

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
      return { countries: await listCountries(app.db, language) }
    },
  )
}
