import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { promisify } from 'node:util'
import { asc, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { auditEntries } from '../db/schema/admin'
import { users } from '../db/schema/auth'
import { billingCustomers } from '../db/schema/billing'
import {
  directOperate,
  type Operate,
  runCli,
  serverOperate,
  UsageError,
} from '../scripts/cli-commands'
import { serverInfoFile } from '../server/data-dir'
import { AppError } from '../server/errors'
import { translate } from '../server/i18n'
import { createJobRunner } from '../server/plugins/jobs'
import { buildUser } from './support/factories'
import { makeWav, makeWebmHeader } from './support/media'
import { createTestEnvironment, type TestEnvironment } from './support/test-app'

// The operator command. Its commands run in this process against a real app, both ways the
// command can reach the data: on the database directly, and through a running server's
// operator routes. A few tests start the real command as its own process, for what only a
// process shows: exit codes, printed usage, and finding the running server by itself.

const root = path.resolve(import.meta.dirname, '..')
const CODE = /^HZ-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/

let environment: TestEnvironment
let app: FastifyInstance
let url: string

beforeAll(async () => {
  environment = await createTestEnvironment()
  app = await environment.build()
  await app.listen({ port: 0, host: '127.0.0.1' })
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await app?.close()
  await environment?.destroy()
})

/** What the command prints, or the sentence it ends with when it fails. */
async function cli(operate: Operate, ...args: string[]): Promise<string> {
  const lines: string[] = []
  try {
    await runCli(operate, args, (line) => lines.push(line))
    return lines.join('\n')
  } catch (error) {
    // As scripts/cli.ts prints it.
    if (error instanceof AppError) throw new Error(translate(error.messageKey, 'en'))
    throw error
  }
}

const transports: [string, () => Operate][] = [
  [
    'on the database',
    () =>
      directOperate({
        db: app.db,
        executeSql: app.database.executeSql,
        storage: app.storage,
        payments: app.payments,
      }),
  ],
  ['through the running server', () => serverOperate(url, app.secrets.cliToken)],
]

describe.each(transports)('npm run cli, %s', (label, transport) => {
  it('makes a confirmed account an operator and a member again, each change in the audit log', async () => {
    const operate = transport()
    const { user } = await buildUser(app, { name: `Operator ${label}` })
    const shouted = `  ${user.email.toUpperCase()} `
    expect(await cli(operate, 'operators', 'add', shouted)).toBe(
      `${user.email} (Operator ${label}) is now an operator.`,
    )
    expect(await cli(operate, 'operators', 'add', user.email)).toBe(
      `${user.email} (Operator ${label}) was already an operator.`,
    )
    const listed = (await cli(operate, 'operators', 'list')).split('\n')
    const today = new Date().toISOString().slice(0, 10)
    expect(listed).toContain(`${user.email}  ${today}  Operator ${label}`)
    const [row] = await app.db.select({ role: users.role }).from(users).where(eq(users.id, user.id))
    expect(row?.role).toBe('operator')

    expect(await cli(operate, 'operators', 'remove', user.email)).toBe(
      `${user.email} (Operator ${label}) is no longer an operator.`,
    )
    expect(await cli(operate, 'operators', 'remove', user.email)).toBe(
      `${user.email} (Operator ${label}) was not an operator.`,
    )
    expect(await cli(operate, 'operators', 'list')).not.toContain(user.email)

    // Two changes, two entries: the repeated commands wrote nothing.
    const entries = await app.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.memberId, user.id))
      .orderBy(asc(auditEntries.at))
    expect(entries).toMatchObject([
      {
        actorId: null,
        actor: 'command line',
        action: 'operators.add',
        memberEmail: user.email,
        before: { role: 'member' },
        after: { role: 'operator' },
      },
      {
        action: 'operators.remove',
        before: { role: 'operator' },
        after: { role: 'member' },
      },
    ])
  })

  it('refuses to make an operator of an unknown or unconfirmed account', async () => {
    const operate = transport()
    await expect(cli(operate, 'operators', 'add', 'nobody-here@example.test')).rejects.toThrow(
      'No account has this e-mail.',
    )
    const { user } = await buildUser(app, { confirmed: false })
    await expect(cli(operate, 'operators', 'add', user.email)).rejects.toThrow(
      'This account has not confirmed its e-mail yet',
    )
    await expect(cli(operate, 'operators', 'add')).rejects.toThrow(
      'Name the account: operators add EMAIL',
    )
    await expect(cli(operate, 'operators', 'promote', user.email)).rejects.toThrow(
      'Unknown action "promote".',
    )
    const [row] = await app.db.select({ role: users.role }).from(users).where(eq(users.id, user.id))
    expect(row?.role).toBe('member')
  })

  it('creates codes, one per line, lists and revokes them', async () => {
    const operate = transport()
    const codes = (await cli(operate, 'codes', 'create', '--count', '3', '--note', 'Retreat'))
      .trim()
      .split('\n')
    expect(codes).toHaveLength(3)
    for (const code of codes) expect(code).toMatch(CODE)

    expect(await cli(operate, 'codes', 'revoke', codes[0]?.toLowerCase() ?? '')).toBe(
      `Revoked ${codes[0]}`,
    )
    const listed = await cli(operate, 'codes', 'list')
    expect(listed).toMatch(new RegExp(`${codes[0]}\\s+revoked`))
    expect(listed).toMatch(new RegExp(`${codes[1]}\\s+available .* Retreat`))
  })

  it('explains bad usage and unknown codes', async () => {
    const operate = transport()
    await expect(cli(operate, 'codes', 'explode')).rejects.toBeInstanceOf(UsageError)
    await expect(cli(operate, 'codes', 'create', '--count', '0')).rejects.toThrow(
      '--count must be a whole number from 1 to 500.',
    )
    await expect(cli(operate, 'codes', 'revoke', 'HZ-2222-2222')).rejects.toThrow(
      'not an active code',
    )
  })

  it('adds, lists and removes media files, and refuses what is not media', async () => {
    const operate = transport()
    const folder = environment.dataDir
    const wav = path.join(folder, 'calm tone.wav')
    const webm = path.join(folder, 'clip.webm')
    const text = path.join(folder, 'notes.txt')
    writeFileSync(wav, makeWav(0.25))
    writeFileSync(webm, makeWebmHeader())
    writeFileSync(text, 'not a media file')

    expect(await cli(operate, 'media', 'add', wav, '--backing')).toBe(
      'medias/WH_BackingTrack-calm-tone.wav',
    )
    expect(await cli(operate, 'media', 'add', webm, '--panel', '01')).toBe('medias/clip.webm')
    await expect(cli(operate, 'media', 'add', text)).rejects.toThrow(
      'This file type is not supported.',
    )
    await expect(cli(operate, 'media', 'add', webm, '--panel', '1')).rejects.toThrow(
      '--panel must be a panel id',
    )

    const listed = await cli(operate, 'media', 'list')
    expect(listed).toMatch(/medias\/WH_BackingTrack-calm-tone\.wav\s+backing\s+all\s+audio\/wav/)
    expect(listed).toMatch(/medias\/clip\.webm\s+video\s+01\s+video\/webm/)

    for (const key of ['medias/WH_BackingTrack-calm-tone.wav', 'medias/clip.webm']) {
      expect(await cli(operate, 'media', 'remove', key)).toBe(`Removed ${key}`)
    }
    await expect(cli(operate, 'media', 'remove', 'medias/clip.webm')).rejects.toThrow(
      'is not a media file',
    )
    expect(await cli(operate, 'media', 'list')).toContain('No media files yet.')
  })

  it('lists the price plans, creates one and archives it', async () => {
    const operate = transport()
    const listed = await cli(operate, 'prices', 'list')
    expect(listed).toMatch(/price_\w+\s+ONE PAYMENT\s+one_payment\s+US\$149\.00\s+on sale/)
    expect(listed).toMatch(/price_\w+\s+FOUR PAYMENTS\s+four_payments\s+US\$39\.00\s+on sale/)
    expect(listed).toMatch(/price_\w+\s+SUBSCRIPTION\s+subscription\s+US\$15\.00\s+on sale/)

    const nickname = `OFFER_${label.length}`
    const id = await cli(
      operate,
      'prices',
      'create',
      '--nickname',
      nickname,
      '--plan',
      'one_payment',
      '--amount',
      '99.5',
    )
    expect(id).toMatch(/^price_[A-Za-z0-9]{24}$/)
    expect(await cli(operate, 'prices', 'list')).toMatch(
      new RegExp(`${id}\\s+OFFER ${label.length}\\s+one_payment\\s+US\\$99\\.50\\s+on sale`),
    )
    expect(await cli(operate, 'prices', 'archive', id)).toBe(
      `Archived ${id} (OFFER ${label.length}); it is no longer on sale.`,
    )
    expect(await cli(operate, 'prices', 'list')).toMatch(new RegExp(`${id}\\s.*archived`))
  })

  it('explains a bad price and an unknown one', async () => {
    const operate = transport()
    const create = (...extra: string[]) => cli(operate, 'prices', 'create', ...extra)
    await expect(create('--plan', 'one_payment', '--amount', '5')).rejects.toThrow(
      '--nickname is required',
    )
    await expect(create('--nickname', 'X', '--plan', 'weekly', '--amount', '5')).rejects.toThrow(
      '--plan must be one of one_payment, four_payments, subscription.',
    )
    for (const amount of ['0.49', '5.555', 'ten', '-5']) {
      await expect(
        create('--nickname', 'X', '--plan', 'subscription', `--amount=${amount}`),
      ).rejects.toThrow('--amount must be in dollars')
    }
    await expect(cli(operate, 'prices', 'archive', 'price_unknown')).rejects.toThrow(
      'This price does not exist.',
    )
  })

  it('syncs one member or every member from the payment provider', async () => {
    const operate = transport()
    const { user, session } = await buildUser(app, { name: `Sync ${label}` })
    // Billing information saved: the member's customer at the provider, synced here.
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/billing/info',
      headers: { cookie: session?.header ?? '' },
      payload: {
        name: 'As Saved',
        email: user.email,
        line1: 'Calle Mayor 1',
        city: 'Madrid',
        postalCode: '28013',
        country: 'ES',
      },
    })
    expect(saved.statusCode).toBe(200)
    const nameHere = async () =>
      (
        await app.db
          .select({ name: billingCustomers.name, customerId: billingCustomers.customerId })
          .from(billingCustomers)
          .where(eq(billingCustomers.userId, user.id))
      )[0]
    const customerId = (await nameHere())?.customerId ?? ''
    // A change made at the provider with no event: our tables know nothing of it yet.
    await app.payments.updateCustomer(customerId, { name: 'Renamed At The Provider' })
    expect((await nameHere())?.name).toBe('As Saved')
    expect(await cli(operate, 'billing', 'sync', '--email', user.email.toUpperCase())).toBe(
      'Synced 1 member from the payment provider.',
    )
    expect((await nameHere())?.name).toBe('Renamed At The Provider')

    await app.payments.updateCustomer(customerId, { name: 'Renamed Again' })
    expect(await cli(operate, 'billing', 'sync', '--all')).toMatch(
      /^Synced \d+ members? from the payment provider\.$/,
    )
    expect((await nameHere())?.name).toBe('Renamed Again')

    await expect(cli(operate, 'billing', 'sync')).rejects.toThrow(
      'billing sync takes --all or --email ADDRESS (one of them).',
    )
    await expect(cli(operate, 'billing', 'sync', '--email', 'nobody@example.com')).rejects.toThrow(
      translate('billing.customerNotFound', 'en'),
    )
  })

  it('prints its usage for help', async () => {
    for (const word of ['help', '--help']) {
      expect(await cli(transport(), word)).toContain('npm run cli -- codes create')
    }
  })
})

describe('npm run cli -- jobs failed', () => {
  it('lists a job that gave up, with what it was about and why, either way', async () => {
    // A mail that could not be delivered, as the queue records it after its last retry.
    const runner = await createJobRunner(
      { ...app.database, transaction: (fn) => app.db.transaction(fn) },
      { error: () => {}, warn: () => {} },
      { pollingIntervalSeconds: 0.5 },
    )
    await runner.start()
    const [direct, server] = transports.map(([, transport]) => transport())
    try {
      expect(await cli(direct as Operate, 'jobs', 'failed')).toContain('No failed jobs')
      const queue = await runner.jobs.define<{ to: string }>(
        'cli-test-mail',
        {
          retryLimit: 0,
          retryDelaySeconds: 1,
          expireInSeconds: 30,
          describe: (job) => `mail to ${job.to}`,
        },
        async (job) => {
          throw new Error(`Mail to ${job.to} could not be delivered: connect ECONNREFUSED`)
        },
      )
      await queue.send({ to: 'ann@example.com' })
      const expected =
        /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}cli-test-mail {2}mail to ann@example\.com {2}1 attempt {2}Mail to ann@example\.com could not be delivered: connect ECONNREFUSED$/m
      await vi.waitFor(
        async () => expect(await cli(direct as Operate, 'jobs', 'failed')).toMatch(expected),
        { timeout: 15_000 },
      )
      expect(await cli(server as Operate, 'jobs', 'failed')).toMatch(expected)
    } finally {
      await runner.stop()
    }
  })
})

describe('the command as its own process', () => {
  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, ...environment.env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    )

  it('finds the running server by itself, and exits 1 with the usage after a mistake', async () => {
    // The server writes where it listens (server.ts); this app was built in-process.
    writeFileSync(serverInfoFile(environment.config.dataDir), JSON.stringify({ url }))
    const created = await run('codes', 'create')
    expect(created.code).toBe(0)
    const code = created.stdout.trim()
    expect(code).toMatch(CODE)
    // With the embedded database, the only way in while the app holds it was through the app.
    expect(await cli(serverOperate(url, app.secrets.cliToken), 'codes', 'list')).toContain(code)

    const mistake = await run('codes', 'explode')
    expect(mistake.code).toBe(1)
    expect(mistake.stderr).toContain('Unknown action "explode".')
    expect(mistake.stderr).toContain('Usage:')
  })
})
