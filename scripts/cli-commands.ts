// The operator command's commands, separate from its entry point (scripts/cli.ts) so tests can
// run them in-process, on the database directly or through a server.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import type { z } from 'zod/mini'
import { PLANS, priceNicknameSchema, unitAmountSchema } from '../domain/billing'
import { formatMoney } from '../domain/format'
import {
  type OperationInput,
  type OperationName,
  type OperationOutput,
  type OperatorDeps,
  type OperatorOperation,
  operationPath,
  operatorOperations,
} from '../server/features/operator/public'

export const USAGE = `Usage:
  npm run cli -- codes create [--count N] [--note TEXT]   prints each new code on its own line
  npm run cli -- codes list                              every code and its state
  npm run cli -- codes revoke CODE                       the code stops giving access
  npm run cli -- media add FILE [--panel ID] [--backing] stores a video or backing track, prints its key
  npm run cli -- media list                              every media file
  npm run cli -- media remove KEY                        deletes the file and its record
  npm run cli -- prices list                             every price plan, on sale or archived
  npm run cli -- prices create --nickname NAME --plan PLAN --amount DOLLARS
                                                         a new price on sale; PLAN is one_payment,
                                                         four_payments or subscription; prints its id
  npm run cli -- prices archive PRICE_ID                 takes a price off sale (plans bought go on)
  npm run cli -- billing advance --email ADDRESS --days N
                                                         sandbox only: moves that member's clock N
                                                         days on; renewals and installments due run
  npm run cli -- billing sync --all | --email ADDRESS   re-reads members from the payment provider
                                                         and rewrites their billing tables
  npm run cli -- jobs failed                             background jobs (e.g. mail) that gave up
  npm run cli -- operators add EMAIL                     that confirmed account becomes an operator;
                                                         the audit log keeps each change
  npm run cli -- operators remove EMAIL                  that account is a member again
  npm run cli -- operators list                          every operator, and since when
  npm run cli -- backup FILE                             a copy of the embedded database (and
                                                         DATA_DIR's secrets), also while it serves
  npm run cli -- restore FILE                            brings a backup back into an empty DATA_DIR
                                                         that no server is using`

/** Runs an operator operation, on the database directly or through the running server. */
export type Operate = <N extends OperationName>(
  name: N,
  input: OperationInput<N>,
  file?: Buffer,
) => Promise<OperationOutput<N>>

export class UsageError extends Error {}

/** Operations on the given database and storage, checked as a server checks them. */
export function directOperate(deps: OperatorDeps): Operate {
  return async (name, input, file) => {
    const operation = operatorOperations[name] as unknown as OperatorOperation<
      z.ZodMiniType,
      z.ZodMiniType
    >
    const output = await operation.run(deps, operation.input.parse(input), file)
    return operatorOperations[name].output.parse(output) as OperationOutput<typeof name>
  }
}

/** Operations through a running server's operator routes (loopback, token from DATA_DIR). */
export function serverOperate(url: string, token: string): Operate {
  return async (name, input, file) => {
    const operation = operatorOperations[name]
    const target = new URL(`${url}/api/operator${operationPath(name)}`)
    if (file) target.searchParams.set('input', JSON.stringify(input))
    const response = await fetch(target, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'accept-language': 'en',
        'content-type': file ? 'application/octet-stream' : 'application/json',
      },
      body: file ? new Uint8Array(file) : JSON.stringify(input),
    })
    const answer: unknown = await response.json().catch(() => undefined)
    if (!response.ok) {
      // The server's own sentence (e.g. an unsupported file type) says more than a status.
      const message = (answer as { message?: unknown } | undefined)?.message
      throw new Error(
        typeof message === 'string'
          ? message
          : `The running server refused the request (${response.status}).`,
      )
    }
    const checked = operation.output.safeParse(answer)
    if (!checked.success) {
      throw new Error('The running server answered in a form this command does not know.')
    }
    return checked.data as OperationOutput<typeof name>
  }
}

async function runMedia(
  operate: Operate,
  action: string | undefined,
  target: string | undefined,
  values: { panel?: string; backing?: boolean },
  print: (line: string) => void,
) {
  if (action === 'add') {
    if (!target) throw new UsageError('Name the file to add: media add FILE')
    if (values.panel !== undefined && !/^\d{2}$/.test(values.panel)) {
      throw new UsageError('--panel must be a panel id such as 01.')
    }
    const data = await readFile(target)
    const { media } = await operate(
      'media.add',
      { name: path.basename(target), panelId: values.panel, backing: values.backing ?? false },
      data,
    )
    print(media.key)
    return
  }
  if (action === 'list') {
    const { media: files } = await operate('media.list', {})
    if (files.length === 0) print('No media files yet. Add one with: media add FILE')
    for (const file of files) {
      print(
        [
          file.key,
          file.kind.padEnd(7),
          file.panelId ?? 'all',
          file.contentType,
          String(file.size),
          file.createdAt.slice(0, 10),
        ].join('  '),
      )
    }
    return
  }
  if (action === 'remove') {
    if (!target) throw new UsageError('Name the media key to remove: media remove KEY')
    if (!(await operate('media.remove', { key: target })).removed)
      throw new Error(`${target} is not a media file.`)
    print(`Removed ${target}`)
    return
  }
  throw new UsageError(`Unknown action "${action ?? ''}".`)
}

/** Dollars as an operator types them (`49`, `49.5`, `49.00`) to cents, or null. */
export function dollarsToCents(text: string): number | null {
  const match = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(text.trim())
  if (!match) return null
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

async function runPrices(
  operate: Operate,
  action: string | undefined,
  target: string | undefined,
  values: { nickname?: string; plan?: string; amount?: string },
  print: (line: string) => void,
) {
  if (action === 'list') {
    const { prices } = await operate('prices.list', {})
    for (const price of prices) {
      print(
        [
          price.id,
          price.label.padEnd(16),
          price.plan.padEnd(13),
          formatMoney(price.unitAmount, 'en').padStart(12),
          price.active ? 'on sale' : 'archived',
        ].join('  '),
      )
    }
    return
  }
  if (action === 'create') {
    const nickname = priceNicknameSchema.safeParse(values.nickname ?? '')
    if (!nickname.success) {
      throw new UsageError(
        '--nickname is required: letters, digits, spaces, dashes and underscores, up to 60.',
      )
    }
    const plan = PLANS.find((candidate) => candidate === values.plan)
    if (!plan) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}.`)
    const unitAmount = values.amount === undefined ? null : dollarsToCents(values.amount)
    if (unitAmount === null || !unitAmountSchema.safeParse(unitAmount).success) {
      throw new UsageError('--amount must be in dollars, from 0.50 to 100000 (e.g. 49.00).')
    }
    const { price } = await operate('prices.create', { nickname: nickname.data, plan, unitAmount })
    print(price.id)
    return
  }
  if (action === 'archive') {
    if (!target) throw new UsageError('Name the price to archive: prices archive PRICE_ID')
    const { price } = await operate('prices.archive', { id: target })
    print(`Archived ${price.id} (${price.label}); it is no longer on sale.`)
    return
  }
  throw new UsageError(`Unknown action "${action ?? ''}".`)
}

async function runBilling(
  operate: Operate,
  action: string | undefined,
  values: { email?: string; days?: string; all?: boolean },
  print: (line: string) => void,
) {
  if (action === 'sync') {
    if (Boolean(values.all) === Boolean(values.email)) {
      throw new UsageError('billing sync takes --all or --email ADDRESS (one of them).')
    }
    const { synced } = await operate(
      'billing.sync',
      values.email ? { email: values.email } : { all: true },
    )
    print(`Synced ${synced} ${synced === 1 ? 'member' : 'members'} from the payment provider.`)
    return
  }
  if (action !== 'advance') throw new UsageError(`Unknown action "${action ?? ''}".`)
  const days = Number(values.days)
  if (!Number.isInteger(days) || days < 1 || days > 3660) {
    throw new UsageError('--days must be a whole number from 1 to 3660.')
  }
  if (!values.email) throw new UsageError('--email names the member whose clock moves.')
  const { clock } = await operate('billing.advance', { email: values.email, days })
  print(
    `The sandbox clock of ${values.email} now reads ${clock.slice(0, 16).replace('T', ' ')} UTC.`,
  )
}

async function runOperators(
  operate: Operate,
  action: string | undefined,
  target: string | undefined,
  print: (line: string) => void,
) {
  if (action === 'list') {
    const { operators } = await operate('operators.list', {})
    if (operators.length === 0) print('No operators yet. Make one with: operators add EMAIL')
    for (const operator of operators) {
      const since = operator.since ? operator.since.slice(0, 10) : '-'
      print([operator.email, since, operator.name].join('  '))
    }
    return
  }
  if (action !== 'add' && action !== 'remove') {
    throw new UsageError(`Unknown action "${action ?? ''}".`)
  }
  if (!target) throw new UsageError(`Name the account: operators ${action} EMAIL`)
  const change = await operate(`operators.${action}`, { email: target })
  const who = `${change.email} (${change.name})`
  if (action === 'add') {
    print(change.changed ? `${who} is now an operator.` : `${who} was already an operator.`)
  } else {
    print(change.changed ? `${who} is no longer an operator.` : `${who} was not an operator.`)
  }
}

async function runJobs(
  operate: Operate,
  action: string | undefined,
  print: (line: string) => void,
) {
  if (action !== 'failed') throw new UsageError(`Unknown action "${action ?? ''}".`)
  const { jobs } = await operate('jobs.failed', {})
  if (jobs.length === 0)
    print('No failed jobs: everything queued was done or is still being retried.')
  for (const job of jobs) {
    print(
      [
        job.failedAt.slice(0, 19).replace('T', ' '),
        job.queue,
        job.about,
        `${job.attempts} ${job.attempts === 1 ? 'attempt' : 'attempts'}`,
        job.error,
      ].join('  '),
    )
  }
}

/**
 * Runs one command line (without `npm run cli --`) with `operate`, printing through `print`.
 * Exported so tests can run commands in-process.
 */
export async function runCli(
  operate: Operate,
  args: string[],
  print: (line: string) => void = (line) => console.log(line),
) {
  if (args.length === 0 || ['help', '--help', '-h'].includes(args[0] ?? '')) {
    print(USAGE)
    return
  }
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      count: { type: 'string' },
      note: { type: 'string' },
      panel: { type: 'string' },
      backing: { type: 'boolean' },
      nickname: { type: 'string' },
      plan: { type: 'string' },
      amount: { type: 'string' },
      email: { type: 'string' },
      days: { type: 'string' },
      all: { type: 'boolean' },
    },
  })
  const [group, action, target] = positionals
  if (group === 'media') return runMedia(operate, action, target, values, print)
  if (group === 'jobs') return runJobs(operate, action, print)
  if (group === 'operators') return runOperators(operate, action, target, print)
  if (group === 'billing') return runBilling(operate, action, values, print)
  if (group === 'prices') return runPrices(operate, action, target, values, print)
  if (group !== 'codes') throw new UsageError(`Unknown command "${group ?? ''}".`)
  if (action === 'create') {
    const count = values.count === undefined ? 1 : Number(values.count)
    if (!Number.isInteger(count) || count < 1 || count > 500) {
      throw new UsageError('--count must be a whole number from 1 to 500.')
    }
    const { codes } = await operate('codes.create', { count, note: values.note })
    for (const code of codes) print(code)
    return
  }
  if (action === 'list') {
    const { codes } = await operate('codes.list', {})
    if (codes.length === 0) print('No access codes yet. Create some with: codes create')
    for (const code of codes) {
      print(
        [
          code.code,
          code.status.padEnd(9),
          code.createdAt.slice(0, 10),
          code.redeemedBy ?? '-',
          code.note ?? '',
        ]
          .join('  ')
          .trimEnd(),
      )
    }
    return
  }
  if (action === 'revoke') {
    if (!target) throw new UsageError('Name the code to revoke: codes revoke CODE')
    if (!(await operate('codes.revoke', { code: target })).revoked) {
      throw new Error(`${target} is not an active code (unknown or already revoked).`)
    }
    print(`Revoked ${target.trim().toUpperCase()}`)
    return
  }
  throw new UsageError(`Unknown action "${action ?? ''}".`)
}
