import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  changePasswordRequestSchema,
  confirmSignUpRequestSchema,
  emailChangeConfirmSchema,
  emailChangeRequestSchema,
  emailWithHumanCheckSchema,
  languageRequestSchema,
  okResponseSchema,
  resetPasswordRequestSchema,
  signInRequestSchema,
  signUpRequestSchema,
} from '../../../domain/account'
import { sessionResponseSchema } from '../../../domain/session'
import { apiErrorSchema } from '../../errors'
import { requestLanguage } from '../../i18n'
import { presentSessionUser } from './presenter'
import * as account from './service'

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  429: apiErrorSchema,
}
const ok = { ok: true as const }

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })

  app.get(
    '/session',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user, or null for a visitor',
        response: { 200: sessionResponseSchema },
      },
    },
    async (request) => {
      const user = await app.getUser(request)
      return { user: user ? presentSessionUser(user) : null }
    },
  )

  app.post(
    '/account/sign-up',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Create an account; a 6-digit code is e-mailed to confirm the address',
        body: signUpRequestSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { language, ...rest } = request.body
      await account.signUp(
        { app, request, reply },
        { ...rest, language: language ?? requestLanguage(request) },
      )
      return ok
    },
  )

  app.post(
    '/account/confirm',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Confirm a new account with the e-mailed code',
        body: confirmSignUpRequestSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      await account.confirmSignUp({ app, request, reply }, request.body)
      return ok
    },
  )

  app.post(
    '/account/resend-code',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Send a new confirmation code (same answer for any address)',
        body: emailWithHumanCheckSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      await account.resendConfirmation({ app, request, reply }, request.body)
      return ok
    },
  )

  app.post(
    '/account/sign-in',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign in; sets the session cookie',
        body: signInRequestSchema,
        response: { 200: sessionResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await account.signIn({ app, request, reply }, request.body)
      return { user: presentSessionUser(user) }
    },
  )

  app.post(
    '/account/sign-out',
    {
      schema: {
        tags: ['accounts'],
        summary: 'End the current session',
        response: { 200: okResponseSchema },
      },
    },
    async (request, reply) => {
      await account.signOut({ app, request, reply })
      return ok
    },
  )

  app.post(
    '/account/forgot-password',
    {
      schema: {
        tags: ['accounts'],
        summary: 'E-mail a reset code (same answer for any address)',
        body: emailWithHumanCheckSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      await account.forgotPassword({ app, request, reply }, request.body)
      return ok
    },
  )

  app.post(
    '/account/reset-password',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Set a new password with the e-mailed code; ends every session',
        body: resetPasswordRequestSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      await account.resetPassword({ app, request, reply }, request.body)
      return ok
    },
  )

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
      await account.changePassword({ app, request, reply }, user, request.body)
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
    async (request, reply) => {
      const user = await app.requireUser(request)
      await account.requestEmailChange({ app, request, reply }, user, request.body)
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
      await account.confirmEmailChange({ app, request, reply }, user, request.body)
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
    async (request, reply) => {
      const user = await app.requireUser(request)
      await account.setLanguage({ app, request, reply }, user, request.body.language)
      return ok
    },
  )
}
