import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Language } from '../domain/i18n'
import { isMessageKey, type MessageKey, requestLanguage, translate } from './i18n'

/**
 * An expected failure a service reports to the user: an HTTP status and a message key, which the
 * error handler turns into text in the user's language. `retryAfterSeconds` sets Retry-After.
 */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly messageKey: MessageKey,
    public readonly retryAfterSeconds?: number,
  ) {
    super(messageKey)
    this.name = 'AppError'
  }
}

export interface ApiIssue {
  /** Dotted path of the field, e.g. `body.email`; empty for the whole request. */
  field: string
  message: string
}

/** The one error body every endpoint answers with. */
export const apiErrorSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  requestId: z.string(),
})
export type ApiError = z.infer<typeof apiErrorSchema>

const LOCALES: Record<Language, () => { localeError: (issue: never) => unknown }> = {
  en: z.locales.en,
  es: z.locales.es,
}

/** Schema messages are either our own message keys or zod's wording, re-said in the language. */
function issueMessage(
  raw: { keyword: string; message?: string; params: Record<string, unknown> },
  language: Language,
): string {
  if (raw.message && isMessageKey(raw.message)) return translate(raw.message, language)
  const issue = { ...raw.params, code: raw.keyword, message: raw.message }
  const localized = LOCALES[language]().localeError(issue as never)
  const text =
    typeof localized === 'string' ? localized : (localized as { message?: string })?.message
  return text ?? raw.message ?? translate('errors.validation', language)
}

const STATUS_MESSAGES: Partial<Record<number, MessageKey>> = {
  400: 'errors.badRequest',
  404: 'errors.notFound',
  405: 'errors.methodNotAllowed',
  413: 'errors.tooLarge',
  415: 'errors.unsupportedMediaType',
  429: 'errors.tooManyRequests',
}

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  message: string,
  issues?: ApiIssue[],
) {
  const body: ApiError = {
    statusCode,
    error: STATUS_NAMES[statusCode] ?? 'Error',
    message,
    ...(issues ? { issues } : {}),
    requestId: String(request.id),
  }
  return reply.code(statusCode).type('application/json; charset=utf-8').send(body)
}

/**
 * Turns every thrown error into the shared error body. Validation errors name each field in the
 * user's language; 5xx errors are logged in full and answered with a generic sentence only.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const language = requestLanguage(request)
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = error.validationContext ?? 'body'
      const issues = error.validation.map((raw) => ({
        field: [context, ...raw.instancePath.split('/').filter(Boolean)].join('.'),
        message: issueMessage(raw as never, language),
      }))
      return sendError(request, reply, 400, translate('errors.validation', language), issues)
    }
    if (error instanceof AppError) {
      if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds))
      return sendError(request, reply, error.statusCode, translate(error.messageKey, language))
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed')
      return sendError(request, reply, status, translate('errors.internal', language))
    }
    const key = STATUS_MESSAGES[status]
    // Fastify's own 4xx errors (bad JSON, body too large…) carry English text meant for
    // developers; users get a sentence in their language instead.
    return sendError(request, reply, status, key ? translate(key, language) : error.message)
  })
}
