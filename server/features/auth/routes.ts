import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { sessionAnswerSchema } from '../../../domain/access-codes'
import { apiErrorSchema, okResponseSchema } from '../../../domain/api'
import {
  confirmSignUpRequestSchema,
  emailWithHumanCheckSchema,
  resetPasswordRequestSchema,
  sessionResponseSchema,
  signInRequestSchema,
  signUpRequestSchema,
} from '../../../domain/auth'
import { requestLanguage } from '../../i18n'
import { callerOf, forwardCookies } from '../../plugins/auth'
import { accessOf } from '../access/public'
import { presentSessionUser } from './presenter'
import * as auth from './service'

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  429: apiErrorSchema,
}
const ok = { ok: true as const }

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = auth.authDeps(app, await auth.defineAuthJobs(app))
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })

  app.get(
    '/session',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user and their access, or null for a visitor',
        response: { 200: sessionAnswerSchema },
      },
    },
    async (request) => {
      const user = await app.getUser(request)
      if (!user) return { user: null }
      // Cached until it changes (features/access), so the answer costs no query in the usual case.
      return { user: presentSessionUser(user), access: await accessOf(app.db, user.id) }
    },
  )

  app.post(
    '/account/sign-up',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'Create an account; a 6-digit code is e-mailed to confirm the address',
        body: signUpRequestSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { language, ...rest } = request.body
      await auth.signUp(deps, callerOf(request), {
        ...rest,
        language: language ?? requestLanguage(request),
      })
      return ok
    },
  )

  app.post(
    '/account/confirm',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'Confirm a new account with the e-mailed code',
        body: confirmSignUpRequestSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, _reply) => {
      await auth.confirmSignUp(deps, callerOf(request), request.body)
      return ok
    },
  )

  app.post(
    '/account/resend-code',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'Send a new confirmation code (same answer for any address)',
        body: emailWithHumanCheckSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, _reply) => {
      await auth.resendConfirmation(deps, callerOf(request), request.body)
      return ok
    },
  )

  app.post(
    '/account/sign-in',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'Sign in; sets the session cookie',
        body: signInRequestSchema,
        response: { 200: sessionResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user, cookies } = await auth.signIn(deps, callerOf(request), request.body)
      forwardCookies(cookies, reply)
      // With the member's access, so the page can land where there is something for them.
      return { user: presentSessionUser(user), access: await accessOf(app.db, user.id) }
    },
  )

  app.post(
    '/account/sign-out',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'End the current session',
        response: { 200: okResponseSchema },
      },
    },
    async (request, reply) => {
      forwardCookies(await auth.signOut(deps, callerOf(request)), reply)
      return ok
    },
  )

  app.post(
    '/account/forgot-password',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'E-mail a reset code (same answer for any address)',
        body: emailWithHumanCheckSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, _reply) => {
      await auth.forgotPassword(deps, callerOf(request), request.body)
      return ok
    },
  )

  app.post(
    '/account/reset-password',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'Set a new password with the e-mailed code; ends every session',
        body: resetPasswordRequestSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, _reply) => {
      await auth.resetPassword(deps, callerOf(request), request.body)
      return ok
    },
  )
}
