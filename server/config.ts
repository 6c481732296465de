import path from 'node:path'
import { z } from 'zod'

/**
 * The configuration contract. Every variable is optional: with none of them set the whole
 * product runs on one machine (PGlite, local outbox, sandbox payments, local files).
 * A bad value stops start-up with a message naming the variable and what it accepts.
 */
const envSchema = z
  .object({
    /** `production` (default) or `development` (pretty logs) or `test` (quiet logs). */
    NODE_ENV: z
      .enum(['production', 'development', 'test'], {
        error: 'must be one of production, development, test',
      })
      .default('production'),
    /** TCP port to listen on; 0 picks a free port (used by tests). */
    PORT: z.coerce
      .number({ error: 'must be a whole number from 0 to 65535' })
      .int({ error: 'must be a whole number from 0 to 65535' })
      .min(0, { error: 'must be a whole number from 0 to 65535' })
      .max(65535, { error: 'must be a whole number from 0 to 65535' })
      .default(3000),
    /** Interface to listen on. Loopback by default so a laptop does not expose the app. */
    HOST: z.string().min(1).default('127.0.0.1'),
    /** Origin used in links, cookies and CSRF checks. Defaults to http://localhost:PORT. */
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .optional(),
    /** Embedded database, local file storage and generated secrets live here. */
    DATA_DIR: z.string().min(1).default('./data'),
    /** postgres://… switches from the embedded PGlite to a real PostgreSQL. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: 'must start with postgres:// or postgresql://' })
      .optional(),
    /** smtp:// or smtps:// server for mail; unset keeps mail in the local outbox. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, { error: 'must start with smtp:// or smtps://' })
      .optional(),
    /** Sender address of every message. */
    MAIL_FROM: z.string().min(3).default('Harmonize <no-reply@harmonize.local>'),
    /** Where support mail from users is delivered. */
    SUPPORT_EMAIL: z
      .email({ error: 'must be an e-mail address' })
      .default('support@harmonize.local'),
    /** `sandbox` (default, no real charges) or `stripe`. */
    PAYMENTS: z
      .enum(['sandbox', 'stripe'], { error: 'must be sandbox or stripe' })
      .default('sandbox'),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_/, { error: 'must start with sk_ or rk_' })
      .optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_/, { error: 'must start with pk_' }).optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, { error: 'must start with whsec_' })
      .optional(),
    /**
     * Another Stripe-compatible server for the SDK (stripe-mock, a recording proxy, the
     * sandbox's own); unset is Stripe itself. Read only when PAYMENTS=stripe.
     */
    STRIPE_API_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      // The secret key travels with every request: in clear only to this machine.
      .refine(
        (url) =>
          !url.startsWith('http://') ||
          /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(url),
        { error: 'must be https:// unless it is on this machine (127.0.0.1, localhost)' },
      )
      .optional(),
    /**
     * With a test key: every new customer is made on a test clock of its own, so
     * `cli billing advance` moves its month on. Stripe deletes a test clock, and the customers
     * on it, some days after it was made: for trying things out only, never for members.
     */
    STRIPE_TEST_CLOCKS: z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .default('false')
      .transform((value) => value === 'true'),
    /** s3://bucket for S3-compatible storage; unset keeps files under DATA_DIR. */
    STORAGE_URL: z
      .string()
      .regex(/^s3:\/\/[a-z0-9.-]{3,63}(\/.*)?$/, { error: 'must look like s3://bucket-name' })
      .optional(),
    S3_ENDPOINT: z.url({ error: 'must be a URL' }).optional(),
    S3_REGION: z.string().min(1).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** redis:// so several processes share rate limits (each otherwise counts on its own). */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, { error: 'must start with redis:// or rediss://' })
      .optional(),
    /**
     * Signing key of sessions, the human check and media links. Unset: generated once into
     * DATA_DIR, which only the embedded database allows (see the check below).
     */
    AUTH_SECRET: z.string().min(32, { error: 'must be at least 32 characters long' }).optional(),
    /** Proof-of-work cost of the human check; tests set it low. */
    CAPTCHA_COST: z.coerce
      .number({ error: 'must be a whole number from 1000 to 10000000' })
      .int({ error: 'must be a whole number from 1000 to 10000000' })
      .min(1000, { error: 'must be a whole number from 1000 to 10000000' })
      .max(10_000_000, { error: 'must be a whole number from 1000 to 10000000' })
      .default(100_000),
    /**
     * Which proxies to believe about the client's address (rate limits are keyed by it):
     * unset trusts none; `true`, a hop count, or comma-separated addresses/CIDRs.
     */
    TRUST_PROXY: z
      .string()
      .regex(/^(true|false|\d+|[\d.:a-fA-F/, ]+)$/, {
        error: 'must be true, false, a number of hops, or comma-separated addresses',
      })
      .optional(),
    /** pino level. */
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .optional(),
  })
  // `when`: run even when a field above is invalid, so one start-up lists every problem at once.
  .superRefine(
    (env, ctx) => {
      if (
        env.STRIPE_TEST_CLOCKS &&
        env.STRIPE_SECRET_KEY &&
        !/^(sk|rk)_test_/.test(env.STRIPE_SECRET_KEY)
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['STRIPE_TEST_CLOCKS'],
          message:
            'needs a test key (sk_test_ or rk_test_): Stripe has no test clocks in live mode',
        })
      }
      if (env.PAYMENTS === 'stripe') {
        for (const key of [
          'STRIPE_SECRET_KEY',
          'STRIPE_PUBLISHABLE_KEY',
          'STRIPE_WEBHOOK_SECRET',
        ] as const) {
          if (!env[key])
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message: 'is required when PAYMENTS=stripe',
            })
        }
      }
      // Servers sharing a PostgreSQL database must sign with one key, and each one would
      // generate a different key into its own DATA_DIR: sessions would break between them.
      if (env.DATABASE_URL && !env.AUTH_SECRET) {
        ctx.addIssue({
          code: 'custom',
          path: ['AUTH_SECRET'],
          message:
            'is required when DATABASE_URL is set (all servers on one database must share it)',
        })
      }
      if (env.STORAGE_URL) {
        for (const key of ['S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
          if (!env[key])
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message: 'is required when STORAGE_URL is set',
            })
        }
      }
    },
    { when: () => true },
  )

export type Env = z.infer<typeof envSchema>

/** TRUST_PROXY as Fastify's `trustProxy` option. */
export function trustProxyOption(
  value: string | undefined,
): boolean | string | ((address: string, hop: number) => boolean) {
  if (!value || value === 'false') return false
  if (value === 'true') return true
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    return (_address, hop) => hop < hops
  }
  return value
}

export type Config = Env & {
  /** PUBLIC_URL without a trailing slash, defaulted from PORT. */
  publicUrl: string
  /** DATA_DIR resolved to an absolute path. */
  dataDir: string
  /** Which database the app talks to. */
  database: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string }
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Query parameters whose value is a secret: `?password=`, `sslpassword`, `access_token`… */
const SECRET_PARAMETER =
  /([?&;][^=&#;?]*(?:pass|pwd|secret|token|key|auth|credential|signature)[^=&#;?]*=)[^&#;]*/gi

/**
 * `value` with what looks like a password replaced by `***`: the password of a URL's
 * `user:password@` and secret query parameters. A value is printed precisely when it is wrong,
 * so this reads the text, not a parsed URL: a mistyped scheme, a missing slash or an unescaped
 * `@`, `/` or `:` in the password still gets it masked. When in doubt it masks too much (all
 * from the colon to the last `@`), never too little.
 */
function maskSecrets(value: string): string {
  let masked = value
  const at = value.lastIndexOf('@')
  if (at > 0) {
    const head = value.slice(0, at)
    // The user name holds no colon, so after `scheme:/…` the first colon opens the password.
    // Without such a scheme, or with no colon after it (`https://token@host`), the first colon
    // of all is taken: the scheme's own at worst.
    const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/+/.exec(head)
    let colon = head.indexOf(':', scheme ? scheme[0].length : 0)
    if (colon < 0) colon = head.indexOf(':')
    if (colon >= 0) masked = `${value.slice(0, colon + 1)}***${value.slice(at)}`
  }
  return masked.replace(SECRET_PARAMETER, '$1***')
}

/** Parses the environment. Empty strings count as unset so `FOO=` in a shell behaves as expected. */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  cwd: string = process.cwd(),
): Config {
  const known = Object.keys(envSchema.shape) as (keyof Env)[]
  const raw: Record<string, string> = {}
  for (const key of known) {
    const value = source[key]
    if (value !== undefined && value.trim() !== '') raw[key] = value.trim()
  }
  const parsed = envSchema.safeParse(raw)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment')
      const given = raw[name]
      // Named secrets are never shown, and URL passwords in any other value are masked.
      const shown =
        given === undefined || /SECRET|KEY|PASSWORD/.test(name)
          ? ''
          : ` (got "${maskSecrets(given)}")`
      return `${name} ${issue.message}${shown}`
    })
    throw new ConfigError(problems)
  }
  const env = parsed.data
  const dataDir = path.resolve(cwd, env.DATA_DIR)
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '')
  return {
    ...env,
    publicUrl,
    dataDir,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'pglite', dir: path.join(dataDir, 'pgdata') },
  }
}
