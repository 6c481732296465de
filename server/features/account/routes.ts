import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  changePasswordRequestSchema,
  emailChangeConfirmSchema,
  emailChangeRequestSchema,
  languageRequestSchema,
} from '../../../domain/account'
import { apiErrorSchema, okResponseSchema } from '../../../domain/api'
import { callerOf, forwardCookies } from '../../plugins/auth'
import * as account from './service'

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  429: apiErrorSchema,
}
const ok = { ok: true as const }

/** The signed-in user's own account: password, e-mail address, language. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = account.accountDeps(app)
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })

  app.post(
    '/account/change-password',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Change the password; other sessions end',
        body: changePasswordRequestSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      const cookies = await account.changePassword(deps, callerOf(request), user, request.body)
      forwardCookies(cookies, reply)
      return ok
    },
  )

  app.post(
    '/account/email-change',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Send a code to the new e-mail address',
        body: emailChangeRequestSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, _reply) => {
      const user = await app.requireUser(request)
      await account.requestEmailChange(deps, callerOf(request), user, request.body)
      return ok
    },
  )

  app.post(
    '/account/email-change/confirm',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Switch to the new e-mail address with its code',
        body: emailChangeConfirmSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      const cookies = await account.confirmEmailChange(deps, callerOf(request), user, request.body)
      forwardCookies(cookies, reply)
      return ok
    },
  )

  app.put(
    '/account/language',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Remember the interface language (used for e-mails)',
        body: languageRequestSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, _reply) => {
      const user = await app.requireUser(request)
      await account.setLanguage(app.auth, user, request.body.language)
      return ok
    },
  )
}
