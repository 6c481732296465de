import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import type { ApiErrorBody as ApiError } from '../domain/api'
import type { Language } from '../domain/i18n'
import { resolveMessage } from '../domain/messages'
import { isMessageKey, type MessageKey, requestLanguage, translate, translateRefusal } from './i18n'

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

type RawIssue = {
  keyword: string
  instancePath: string
  message?: string
  params: Record<string, unknown>
}

/** What a zod check with no message of ours means, in our words (zod's wording is for developers). */
function genericIssue(raw: RawIssue, given: unknown): MessageKey {
  const { params } = raw
  switch (raw.keyword) {
    case 'invalid_type':
      return given === undefined ? 'validation.required' : 'validation.wrongType'
    case 'too_big':
      if (params.origin === 'string') return 'validation.tooLong'
      return params.origin === 'number' || params.origin === 'int' || params.origin === 'bigint'
        ? 'validation.tooLarge'
        : 'validation.invalid'
    case 'too_small':
      return params.origin === 'number' || params.origin === 'int' || params.origin === 'bigint'
        ? 'validation.tooSmall'
        : 'validation.tooShort'
    case 'invalid_value':
      return 'validation.notAllowed'
    default:
      return 'validation.invalid'
  }
}

/** The value an issue is about, found in what the request carried (zod does not report it). */
function givenValue(root: unknown, instancePath: string): unknown {
  let value = root
  for (const part of instancePath.split('/').filter(Boolean)) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

/** A schema message is either one of our message keys or an issue told in our own words. */
function issueMessage(raw: RawIssue, given: unknown, language: Language): string {
  const shared = raw.message ? resolveMessage(raw.message, language) : undefined
  if (shared) return shared
  if (raw.message && isMessageKey(raw.message)) return translate(raw.message, language)
  const key = genericIssue(raw, given)
  const limit = raw.params.maximum ?? raw.params.minimum
  return translate(key, language).replace('{limit}', String(limit ?? ''))
}

const STATUS_MESSAGES: Partial<Record<number, MessageKey>> = {
  400: 'errors.badRequest',
  404: 'errors.notFound',
  405: 'errors.methodNotAllowed',
  413: 'errors.tooLarge',
  414: 'errors.urlTooLong',
  415: 'errors.unsupportedMediaType',
  // A library's 429 says no wait of its own (ours always do: rate-limit.ts).
  429: 'errors.busy',
  431: 'errors.headersTooLarge',
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them: a request line with raw
 * non-ASCII or NUL bytes, headers too large, a request that does not arrive in time. They get
 * the same error body and headers as any other error, written straight to the socket. Nothing
 * of the request can be trusted, so the answer is in English and the request id is new.
 */
export function clientErrorAnswer(
  code: string | undefined,
  headers: Record<string, string>,
): string {
  const statusCode =
    code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
  const key: MessageKey =
    statusCode === 431
      ? 'errors.headersTooLarge'
      : statusCode === 408
        ? 'errors.requestTimeout'
        : 'errors.badRequest'
  const requestId = randomUUID()
  const name = STATUS_CODES[statusCode] ?? 'Error'
  const body = JSON.stringify({
    statusCode,
    error: name,
    message: translate(key, 'en'),
    requestId,
  } satisfies ApiError)
  const lines = [
    `HTTP/1.1 ${statusCode} ${name}`,
    'connection: close',
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    ...Object.entries(headers).map(([header, value]) => `${header}: ${value}`),
  ]
  return `${lines.join('\r\n')}\r\n\r\n${body}`
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  message: string,
  { issues, reason }: { issues?: ApiIssue[]; reason?: MessageKey } = {},
) {
  const body: ApiError = {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    ...(issues ? { issues } : {}),
    ...(reason ? { reason } : {}),
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
      const carried = { body: request.body, querystring: request.query, params: request.params }
      const root = carried[context as keyof typeof carried]
      const issues = error.validation.map((raw) => ({
        field: [context, ...raw.instancePath.split('/').filter(Boolean)].join('.'),
        message: issueMessage(raw as RawIssue, givenValue(root, raw.instancePath), language),
      }))
      return sendError(request, reply, 400, translate('errors.validation', language), { issues })
    }
    if (error instanceof AppError) {
      const wait = error.retryAfterSeconds
      if (wait) reply.header('retry-after', String(wait))
      const message = translateRefusal(error.messageKey, language, wait)
      return sendError(request, reply, error.statusCode, message, { reason: error.messageKey })
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed')
      return sendError(request, reply, status, translate('errors.internal', language))
    }
    // Fastify's and libraries' own 4xx errors (bad JSON, body too large…) carry English text
    // meant for developers; users get a sentence in their language instead, never that text.
    const key = STATUS_MESSAGES[status]
    if (!key) request.log.warn({ err: error }, 'refused by a library without a message of ours')
    return sendError(request, reply, status, translate(key ?? 'errors.badRequest', language))
  })
}
