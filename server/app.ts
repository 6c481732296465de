import { randomUUID } from 'node:crypto'
import swagger from '@fastify/swagger'
import underPressure from '@fastify/under-pressure'
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
  type RouteOptions,
} from 'fastify'
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { type Config, trustProxyOption } from './config'
import { type ConnectionLimits, guardConnections, serverTimeouts } from './connections'
import { loadSecrets, type Secrets } from './data-dir'
import { AppError, clientErrorAnswer, registerErrorHandling, sendError } from './errors'
import { accessGatePlugin } from './features/access/gate'
import { accessRoutes } from './features/access/routes'
import { avatarRoutes } from './features/account/avatar-routes'
import { accountRoutes } from './features/account/routes'
import { factorRoutes } from './features/admin/factor-routes'
import { adminRoutes } from './features/admin/routes'
import { codeEmail, passwordChangedEmail } from './features/auth/mail'
import { authRoutes } from './features/auth/routes'
import { invoiceMailPlugin } from './features/billing/public'
import type { BillingOptions } from './features/billing/resync'
import { billingRoutes } from './features/billing/routes'
import { guideRoutes } from './features/clients/guide-routes'
import { clientRoutes } from './features/clients/routes'
import { mediaRoutes } from './features/harmonize/media-routes'
import { harmonizeRoutes } from './features/harmonize/routes'
import { healthRoutes } from './features/health/routes'
import { infoRoutes } from './features/info/routes'
import { leavingRoutes } from './features/leaving/routes'
import { operatorRoutes } from './features/operator/routes'
import { panelRoutes } from './features/panels/routes'
import { referenceRoutes } from './features/reference/routes'
import { supportRoutes } from './features/support/routes'
import { requestLanguage, translate } from './i18n'
import { type PaymentsOptions, paymentsPlugin } from './payments/plugin'
import { authPlugin } from './plugins/auth'
import { cachePlugin } from './plugins/cache'
import { captchaPlugin } from './plugins/captcha'
import { clientPlugin } from './plugins/client'
import { dbPlugin } from './plugins/db'
import { type JobRunnerOptions, jobsPlugin } from './plugins/jobs'
import { mailPlugin } from './plugins/mail'
import { proxyWarningPlugin } from './plugins/proxy-warning'
import { rateLimitPlugin } from './plugins/rate-limit'
import { securityHeaders, securityPlugin } from './plugins/security'
import { storagePlugin } from './storage/plugin'
import { setZodCompilers } from './zod-schemas'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    secrets: Secrets
    /** Every route with its schemas and settings, in the order they were added. */
    routeCatalog: readonly RouteOptions[]
    /** True from the moment it starts shutting down (its readiness says so at once). */
    shuttingDown(): boolean
  }
}

export interface BuildOptions {
  /** Where the built PWA lives; defaults to dist/client. */
  clientDir?: string
  /** Overrides the logger built from the config (tests pass `false`). */
  logger?: FastifyServerOptions['logger']
  /** Job runner settings (tests make retries quick). */
  jobs?: JobRunnerOptions
  /** Payments settings (tests that only wait for the sandbox's bank make it answer sooner). */
  payments?: PaymentsOptions
  /** Billing settings (tests that wait for a catch-up sync make it come sooner). */
  billing?: BillingOptions
  /** Time-outs and connection caps (tests make them small). */
  connections?: Partial<ConnectionLimits>
  /** When the process counts as overloaded and answers 503 (tests make it easy to reach). */
  pressure?: { maxEventLoopDelayMs?: number }
}

const REQUEST_ID = /^[\w-]{8,64}$/

/** Answers slower than this are logged as a warning. */
const SLOW_REQUEST_MS = 2_000

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  const level = config.LOG_LEVEL ?? (config.NODE_ENV === 'test' ? 'silent' : 'info')
  const base = {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
  }
  if (config.NODE_ENV === 'development' || process.stdout.isTTY) {
    return { ...base, transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
  }
  return base
}

/**
 * Builds the whole application without listening: external plugins first, then ours, then
 * routes. Tests call this and use `inject`; server.ts calls it and listens.
 */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const headers = securityHeaders(config)
  const limits = serverTimeouts(options.connections)
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    ...limits.fastify,
    // Opening the database runs migrations and seeds; on a busy machine that took longer than
    // Fastify's 10 s default for one plugin, and the server refused to start.
    pluginTimeout: 120_000,
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      // A client that hung up needs no answer, nor one whose response has begun (Node's own
      // rule); anyone else gets one in our format.
      const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
      if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
        socket.destroy()
        return
      }
      socket.end(clientErrorAnswer(error.code, headers))
    },
    // A malformed URL or an over-long path parameter is refused before any hook runs; it still
    // gets our error body, the security headers and the request id.
    frameworkErrors: (error, request, reply) => {
      reply.headers(headers).header('x-request-id', request.id)
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      return sendError(
        request,
        reply,
        tooLong ? 414 : 400,
        translate(tooLong ? 'errors.urlTooLong' : 'errors.badRequest', requestLanguage(request)),
      )
    },
    // A caller's id is kept only when it looks like one, so logs cannot be forged with it.
    genReqId: (request) => {
      const given = request.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      // One info line per request buried what operators look for (a walk through the app wrote
      // 7,700); the onResponse hook below logs requests at debug level, errors and slow
      // answers above it.
      disableRequestLogging: true,
    }),
    forceCloseConnections: 'idle',
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    // While it shuts down (its jobs stopping, up to 5 s, before it stops listening), the server
    // answers what reaches it rather than 503: a balancer keeps sending until the port refuses,
    // and a refused connection is what it safely sends elsewhere (README, several servers).
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>()

  guardConnections(app.server, limits.connections, {
    // Behind a proxy every connection comes from the proxy: a per-address cap would throttle it.
    perAddress: !trustProxyOption(config.TRUST_PROXY),
    log: app.log,
  })
  setZodCompilers(app)
  const routeCatalog: RouteOptions[] = []
  app.addHook('onRoute', (route) => {
    routeCatalog.push(route)
  })
  app.decorate('routeCatalog', routeCatalog)
  app.decorate('config', config)
  app.decorate('secrets', loadSecrets(config.dataDir, { authSecret: config.AUTH_SECRET }))
  // The hooks every request passes through take a callback rather than return a promise: at
  // thousands of requests a second the promises alone showed in the profile.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    done()
  })
  const debug = () => app.log.level === 'debug' || app.log.level === 'trace'
  app.addHook('onResponse', (request, reply, done) => {
    const failed = reply.statusCode >= 500
    const slow = reply.elapsedTime > SLOW_REQUEST_MS
    if (failed || slow || debug()) {
      const line = {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      }
      if (failed) request.log.error(line, 'request failed')
      else if (slow) request.log.warn(line, 'slow request')
      else request.log.debug(line, 'request')
    }
    done()
  })
  // While shutting down, answers that were in flight close their keep-alive connection; otherwise
  // the server would wait for the client's idle timeout before it could finish closing.
  let closing = false
  app.decorate('shuttingDown', () => closing)
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
  registerErrorHandling(app)

  try {
    // Each awaited registration loads its plugin at once, so a failure shows up here.
    await registerEverything(app, config, headers, options)
  } catch (error) {
    // What did open (the database and its DATA_DIR lock, the job runner) is closed again.
    await app.close().catch(() => {})
    throw error
  }
  return app
}

/** The plugins in their tiers: external first, then ours, then the routes. */
async function registerEverything(
  app: FastifyInstance,
  config: Config,
  headers: Record<string, string>,
  options: BuildOptions,
) {
  // External tier. Security headers first, so even a refusal from a later hook carries them.
  await app.register(securityPlugin, { config, headers })
  await app.register(proxyWarningPlugin, { config })
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Harmonize API',
        description: 'The HTTP API behind the Harmonize app.',
        version: '0.1.0',
      },
      servers: [{ url: config.publicUrl }],
    },
    transform: jsonSchemaTransform,
  })

  // App tier.
  await app.register(dbPlugin, { config })
  await app.register(jobsPlugin, { options: options.jobs })
  // Measured from here on: opening the database at start-up is heavy but no sign of overload.
  await app.register(underPressure, {
    // When a request waits for a second on average before it even starts, the process is
    // saturated; a quick 503 lets a load balancer or the client's retry go elsewhere instead of
    // piling more work on. (Event-loop utilisation is not used: a busy but healthy process,
    // or a test sending requests back to back, runs near 100 %.)
    // Tests run on purpose beside other loads (the suite must pass with every core busy); a
    // 503 there would be the machine's doing, not the server's, so tests opt in (0: off).
    maxEventLoopDelay:
      options.pressure?.maxEventLoopDelayMs ?? (config.NODE_ENV === 'test' ? 0 : 1000),
    // A rejection goes on to our error handler: our body, headers and Retry-After.
    pressureHandler: async () => {
      throw new AppError(503, 'errors.busy', 10)
    },
  })
  await app.register(rateLimitPlugin, { config })
  await app.register(cachePlugin, { config })
  await app.register(storagePlugin, { config })
  await app.register(paymentsPlugin, { config, options: options.payments })
  await app.register(mailPlugin, { config })
  await app.register(captchaPlugin, { config })
  await app.register(authPlugin, {
    config,
    mail: { codeEmail, passwordChangedEmail },
  })
  await app.register(accessGatePlugin)
  await app.register(invoiceMailPlugin)

  // Routes.
  await app.register(healthRoutes)
  await app.register(authRoutes, { prefix: '/api' })
  await app.register(accountRoutes, { prefix: '/api' })
  await app.register(avatarRoutes, { prefix: '/api' })
  await app.register(leavingRoutes, { prefix: '/api' })
  await app.register(accessRoutes, { prefix: '/api' })
  await app.register(panelRoutes, { prefix: '/api' })
  await app.register(harmonizeRoutes, { prefix: '/api' })
  await app.register(mediaRoutes, { prefix: '/api' })
  await app.register(operatorRoutes, { prefix: '/api/operator' })
  await app.register(factorRoutes, { prefix: '/api' })
  await app.register(adminRoutes, { prefix: '/api/admin' })
  await app.register(referenceRoutes, { prefix: '/api' })
  await app.register(billingRoutes, { prefix: '/api', ...options.billing })
  await app.register(clientRoutes, { prefix: '/api' })
  await app.register(guideRoutes, { prefix: '/api' })
  await app.register(infoRoutes, { prefix: '/api' })
  await app.register(supportRoutes, { prefix: '/api' })
  app.get('/api/docs', { schema: { hide: true }, config: { public: true } }, async () =>
    app.swagger(),
  )
  await app.register(clientPlugin, options.clientDir ? { clientDir: options.clientDir } : {})
}
