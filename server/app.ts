import { randomUUID } from 'node:crypto'
import swagger from '@fastify/swagger'
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify'
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import { type Config, trustProxyOption } from './config'
import { loadSecrets, type Secrets } from './data-dir'
import { registerErrorHandling } from './errors'
import { accessRoutes } from './features/access/routes'
import { avatarRoutes } from './features/account/avatar-routes'
import { accountRoutes } from './features/account/routes'
import { healthRoutes } from './features/health/routes'
import { operatorRoutes } from './features/operator/routes'
import { mediaRoutes } from './features/panels/media-routes'
import { panelRoutes } from './features/panels/routes'
import { referenceRoutes } from './features/reference/routes'
import { authPlugin } from './plugins/auth'
import { captchaPlugin } from './plugins/captcha'
import { clientPlugin } from './plugins/client'
import { dbPlugin } from './plugins/db'
import { mailPlugin } from './plugins/mail'
import { rateLimitPlugin } from './plugins/rate-limit'
import { securityPlugin } from './plugins/security'
import { storagePlugin } from './plugins/storage'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    secrets: Secrets
  }
}

export interface BuildOptions {
  /** Where the built PWA lives; defaults to dist/client. */
  clientDir?: string
  /** Overrides the logger built from the config (tests pass `false`). */
  logger?: FastifyServerOptions['logger']
}

const REQUEST_ID = /^[\w-]{8,64}$/

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
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    // A caller's id is kept only when it looks like one, so logs cannot be forged with it.
    genReqId: (request) => {
      const given = request.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      // Probes hit these every few seconds; logging each would drown real traffic.
      disableRequestLogging: (request) => request.url === '/healthz' || request.url === '/readyz',
    }),
    forceCloseConnections: 'idle',
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>()

  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.decorate('config', config)
  app.decorate('secrets', loadSecrets(config.dataDir, { authSecret: config.AUTH_SECRET }))
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  // While shutting down, answers that were in flight close their keep-alive connection; otherwise
  // the server would wait for the client's idle timeout before it could finish closing.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close')
  })
  registerErrorHandling(app)

  // External tier.
  await app.register(securityPlugin, { config })
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
  await app.register(rateLimitPlugin, { config })
  await app.register(storagePlugin, { config })
  await app.register(mailPlugin, { config })
  await app.register(captchaPlugin, { config })
  await app.register(authPlugin, { config })

  // Routes.
  await app.register(healthRoutes)
  await app.register(accountRoutes, { prefix: '/api' })
  await app.register(avatarRoutes, { prefix: '/api' })
  await app.register(accessRoutes, { prefix: '/api' })
  await app.register(panelRoutes, { prefix: '/api' })
  await app.register(mediaRoutes, { prefix: '/api' })
  await app.register(operatorRoutes, { prefix: '/api/operator' })
  await app.register(referenceRoutes, { prefix: '/api' })
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger())
  await app.register(clientPlugin, options.clientDir ? { clientDir: options.clientDir } : {})

  return app
}
