import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, trustProxyOption } from './config'

const AUTH_SECRET = 'a-shared-secret-of-at-least-32-characters'

/** Runs loadConfig and returns the ConfigError it throws (fails the test when it does not). */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`)
}

describe('loadConfig', () => {
  it('runs the whole product on one machine with no variables set', () => {
    const config = loadConfig({})

    expect(config.PORT).toBe(3000)
    expect(config.HOST).toBe('127.0.0.1')
    expect(config.publicUrl).toBe('http://localhost:3000')
    expect(config.NODE_ENV).toBe('production')
    expect(config.PAYMENTS).toBe('sandbox')
    expect(config.dataDir).toBe(path.resolve(process.cwd(), 'data'))
    expect(config.database).toEqual({
      kind: 'pglite',
      dir: path.join(path.resolve(process.cwd(), 'data'), 'pgdata'),
    })
  })

  it('resolves DATA_DIR against the working directory and keeps PGlite inside it', () => {
    const config = loadConfig({ DATA_DIR: 'var/harmonize' }, '/srv/app')

    expect(config.dataDir).toBe(path.resolve('/srv/app/var/harmonize'))
    expect(config.database).toEqual({
      kind: 'pglite',
      dir: path.join(path.resolve('/srv/app/var/harmonize'), 'pgdata'),
    })
  })

  it('treats empty and blank values as unset', () => {
    const config = loadConfig({
      PORT: '',
      HOST: '',
      PUBLIC_URL: '',
      DATABASE_URL: '  ',
      PAYMENTS: '',
      SMTP_URL: '',
      AUTH_SECRET: '',
    })

    expect(config.PORT).toBe(3000)
    expect(config.HOST).toBe('127.0.0.1')
    expect(config.publicUrl).toBe('http://localhost:3000')
    expect(config.database.kind).toBe('pglite')
    expect(config.PAYMENTS).toBe('sandbox')
    expect(config.SMTP_URL).toBeUndefined()
    expect(config.AUTH_SECRET).toBeUndefined()
  })

  it('derives the public URL from PORT when PUBLIC_URL is unset', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080')
  })

  it('trims the trailing slash of PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://harmonize.example.com/' }).publicUrl).toBe(
      'https://harmonize.example.com',
    )
  })

  it('switches to PostgreSQL when DATABASE_URL is a postgres:// URL', () => {
    const url = 'postgres://harmonize:pw@db.internal:5432/harmonize'

    expect(loadConfig({ DATABASE_URL: url, AUTH_SECRET }).database).toEqual({
      kind: 'postgres',
      url,
    })
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://db/harmonize', AUTH_SECRET }).database.kind,
    ).toBe('postgres')
  })

  it('requires AUTH_SECRET with DATABASE_URL, since every server must sign with the same one', () => {
    const expected = [
      'AUTH_SECRET is required when DATABASE_URL is set (all servers on one database must share it)',
    ]
    const url = 'postgres://db.internal/harmonize'

    expect(configError({ DATABASE_URL: url }).problems).toEqual(expected)
    expect(configError({ DATABASE_URL: url, AUTH_SECRET: '   ' }).problems).toEqual(expected)
    // A secret that is there but too short is one problem, not two.
    expect(configError({ DATABASE_URL: url, AUTH_SECRET: 'short' }).problems).toEqual([
      'AUTH_SECRET must be at least 32 characters long',
    ])
    expect(loadConfig({ DATABASE_URL: url, AUTH_SECRET }).AUTH_SECRET).toBe(AUTH_SECRET)
  })

  it('leaves AUTH_SECRET optional with the embedded database, which generates one', () => {
    expect(loadConfig({ DATA_DIR: '/srv/harmonize' }).AUTH_SECRET).toBeUndefined()
  })

  it('accepts Stripe when all three keys are given', () => {
    const stripe = {
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_123',
      STRIPE_WEBHOOK_SECRET: 'whsec_123',
    }
    const config = loadConfig(stripe)

    expect(config.PAYMENTS).toBe('stripe')
    // Unset, the SDK talks to Stripe itself; set, to the Stripe-compatible server named.
    expect(config.STRIPE_API_URL).toBeUndefined()
    // Test clocks only when asked for: Stripe deletes them, and their customers, after days.
    expect(config.STRIPE_TEST_CLOCKS).toBe(false)
    expect(loadConfig({ ...stripe, STRIPE_TEST_CLOCKS: 'true' }).STRIPE_TEST_CLOCKS).toBe(true)
    expect(loadConfig({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:12111' }).STRIPE_API_URL).toBe(
      'http://127.0.0.1:12111',
    )
  })

  it.each<{ env: Record<string, string>; expected: string }>([
    { env: { PORT: 'abc' }, expected: 'PORT must be a whole number from 0 to 65535' },
    { env: { PORT: '70000' }, expected: 'PORT must be a whole number from 0 to 65535' },
    {
      env: { DATABASE_URL: 'mysql://x', AUTH_SECRET },
      expected: 'DATABASE_URL must start with postgres:// or postgresql://',
    },
    { env: { PAYMENTS: 'paypal' }, expected: 'PAYMENTS must be sandbox or stripe' },
    { env: { SMTP_URL: 'http://x' }, expected: 'SMTP_URL must start with smtp:// or smtps://' },
    { env: { PUBLIC_URL: 'ftp://x' }, expected: 'PUBLIC_URL must be an http:// or https:// URL' },
    {
      env: { STRIPE_API_URL: 'localhost:12111' },
      expected: 'STRIPE_API_URL must be an http:// or https:// URL',
    },
    {
      env: { STRIPE_API_URL: 'http://stripe-proxy.internal:8080' },
      expected:
        'STRIPE_API_URL must be https:// unless it is on this machine (127.0.0.1, localhost)',
    },
    {
      env: { STRIPE_TEST_CLOCKS: 'true', STRIPE_SECRET_KEY: 'sk_live_123' },
      expected:
        'STRIPE_TEST_CLOCKS needs a test key (sk_test_ or rk_test_): Stripe has no test clocks in live mode',
    },
    {
      env: { CAPTCHA_COST: '5' },
      expected: 'CAPTCHA_COST must be a whole number from 1000 to 10000000',
    },
  ])('rejects $env naming the variable and what it allows', ({ env, expected }) => {
    const error = configError(env)

    expect(error.message).toContain(expected)
    expect(error.problems).toHaveLength(1)
    // The operator sees what they typed, so a typo is easy to spot.
    expect(error.message).toContain(`(got "${Object.values(env)[0]}")`)
  })

  it('rejects a short AUTH_SECRET without printing the secret', () => {
    const secret = 'my-short-s3cret'
    const error = configError({ AUTH_SECRET: secret })

    expect(error.message).toContain('AUTH_SECRET must be at least 32 characters long')
    expect(error.message).not.toContain(secret)
  })

  // A connection URL carries its password; a mistyped one must not put it in the start-up log.
  it.each<{ env: Record<string, string>; name: string; shown: string }>([
    {
      env: { DATABASE_URL: 'mysql://harmonize:Db-pa55word@db.internal/harmonize', AUTH_SECRET },
      name: 'DATABASE_URL',
      shown: 'mysql://harmonize:***@db.internal/harmonize',
    },
    {
      env: { SMTP_URL: 'https://mailer:Smtp-pa55word@smtp.example.com:465' },
      name: 'SMTP_URL',
      shown: 'https://mailer:***@smtp.example.com:465',
    },
    {
      env: { REDIS_URL: 'valkey://:Redis-pa55word@cache.internal:6379/0' },
      name: 'REDIS_URL',
      shown: 'valkey://:***@cache.internal:6379/0',
    },
    {
      env: {
        STORAGE_URL: 'gs://uploader:Storage-pa55word@harmonize-files/prod',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
        S3_SECRET_ACCESS_KEY: 'not-shown-either',
      },
      name: 'STORAGE_URL',
      shown: 'gs://uploader:***@harmonize-files/prod',
    },
  ])('rejects a mistyped $name by its name, with the password masked', ({ env, name, shown }) => {
    const error = configError(env)
    const password = /:([^:@]*)@/.exec(env[name] ?? '')?.[1] ?? ''

    expect(password).toMatch(/pa55word$/)
    expect(error.problems).toHaveLength(1)
    expect(error.message).toContain(`  - ${name} must `)
    expect(error.message).not.toContain(password)
    expect(error.message).toContain(`(got "${shown}")`)
  })

  it('masks a URL password in any variable, also where the URL does not parse', () => {
    const secrets = ['pw-one', 'p@ss/w#rd two', 'pw-three', 'tok3n', 'pw-five']
    const error = configError({
      DATABASE_URL: 'postgres//admin:pw-one@db.internal/harmonize',
      SMTP_URL: 'smtp:/mailer:p@ss/w#rd two@smtp.example.com',
      PUBLIC_URL: 'ftp://someone:pw-three@harmonize.example.com',
      REDIS_URL: 'redis:cache.internal:6379?password=tok3n&db=0',
      S3_ENDPOINT: 'minio.internal?user=files&sslpassword=pw-five',
      AUTH_SECRET,
    })

    expect(error.problems).toHaveLength(5)
    for (const secret of secrets) expect(error.message).not.toContain(secret)
    expect(error.message).toContain('(got "postgres//admin:***@db.internal/harmonize")')
    expect(error.message).toContain('(got "smtp:/mailer:***@smtp.example.com")')
    expect(error.message).toContain('(got "ftp://someone:***@harmonize.example.com")')
    expect(error.message).toContain('(got "redis:cache.internal:6379?password=***&db=0")')
    expect(error.message).toContain('(got "minio.internal?user=files&sslpassword=***")')
  })

  it('names each missing Stripe key when PAYMENTS=stripe', () => {
    const error = configError({ PAYMENTS: 'stripe', STRIPE_PUBLISHABLE_KEY: 'pk_test_123' })

    expect(error.problems).toEqual([
      'STRIPE_SECRET_KEY is required when PAYMENTS=stripe',
      'STRIPE_WEBHOOK_SECRET is required when PAYMENTS=stripe',
    ])
  })

  it('lists every problem at once', () => {
    const error = configError({
      PORT: 'abc',
      SMTP_URL: 'http://x',
      DATABASE_URL: 'mysql://x',
      PAYMENTS: 'stripe',
    })

    expect(error.problems).toHaveLength(7)
    for (const name of [
      'PORT',
      'SMTP_URL',
      'DATABASE_URL',
      'AUTH_SECRET',
      'STRIPE_SECRET_KEY',
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ]) {
      expect(error.message).toContain(`  - ${name} `)
    }
  })
})

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default, so a forged X-Forwarded-For cannot dodge rate limits', () => {
    expect(trustProxyOption(loadConfig({}).TRUST_PROXY)).toBe(false)
  })

  it('accepts true, a hop count and a list of addresses', () => {
    expect(trustProxyOption('true')).toBe(true)
    const oneHop = trustProxyOption('1') as (address: string, hop: number) => boolean
    expect([oneHop('10.0.0.1', 0), oneHop('10.0.0.2', 1)]).toEqual([true, false])
    expect(trustProxyOption('10.0.0.0/8, 127.0.0.1')).toBe('10.0.0.0/8, 127.0.0.1')
  })

  it('rejects anything else, naming the variable', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY must be true/)
  })
})
