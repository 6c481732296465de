import { z } from 'zod/mini'
import type { Database, ExecuteSql } from '../../../db/client'
import { createCodesRequestSchema, operatorCodeSchema } from '../../../domain/access-codes'
import { createPriceRequestSchema, priceSchema } from '../../../domain/billing'
import { operatorMediaSchema } from '../../../domain/harmonize'
import {
  failedJobSchema,
  operatorAccountRequestSchema,
  operatorSchema,
  roleChangeSchema,
} from '../../../domain/operators'
import { textSchema } from '../../../domain/text'
import type { PaymentGateway } from '../../payments/gateway'
import { listFailedJobs } from '../../plugins/jobs'
import type { Storage } from '../../storage/storage'
import { createCodes, listCodes, revokeCode } from '../access/public'
import { addOperator, listOperators, removeOperator } from '../admin/public'
import {
  advanceClock,
  archivePrice,
  type BillingDeps,
  createPrice,
  ensureCatalog,
  listAllPrices,
  resyncCustomers,
} from '../billing/public'
import { addMedia, listMedia, removeMedia } from '../harmonize/public'

/** What operator operations work with: the server's own, or opened directly by the CLI. */
export interface OperatorDeps {
  db: Database
  executeSql: ExecuteSql
  storage: Storage
  payments: PaymentGateway
  /** A server's: mails what a sync or a moved clock made due (billing's notices). */
  afterSync?: BillingDeps['afterSync']
}

/**
 * One thing the operator can do. Its input and output schemas are the contract of both ways
 * of running it: `npm run cli` on the database directly, and the operator route of a running
 * server (which the CLI uses when the embedded database is taken), so both check the same
 * things and neither trusts an unchecked answer.
 */
export interface OperatorOperation<Input extends z.ZodMiniType, Output extends z.ZodMiniType> {
  input: Input
  output: Output
  /** The operation takes a file's bytes (sent as the request body through a server). */
  takesFile?: boolean
  run(deps: OperatorDeps, input: z.infer<Input>, file?: Buffer): Promise<z.infer<Output>>
}

const operation = <Input extends z.ZodMiniType, Output extends z.ZodMiniType>(
  definition: OperatorOperation<Input, Output>,
) => definition

export const operatorOperations = {
  'codes.create': operation({
    input: createCodesRequestSchema,
    output: z.object({ codes: z.array(z.string()) }),
    run: async ({ db }, input) => ({ codes: await createCodes(db, input.count ?? 1, input.note) }),
  }),
  'codes.list': operation({
    input: z.object({}),
    output: z.object({ codes: z.array(operatorCodeSchema) }),
    run: async ({ db }) => ({ codes: await listCodes(db) }),
  }),
  'codes.revoke': operation({
    input: z.object({ code: textSchema().check(z.maxLength(64)) }),
    output: z.object({ revoked: z.boolean() }),
    run: async ({ db }, input) => ({ revoked: await revokeCode(db, input.code) }),
  }),
  'media.add': operation({
    input: z.object({
      name: textSchema().check(z.minLength(1), z.maxLength(200)),
      panelId: z.optional(z.string().check(z.regex(/^\d{2}$/))),
      backing: z.optional(z.boolean()),
    }),
    output: z.object({ media: operatorMediaSchema }),
    takesFile: true,
    run: async ({ db, storage }, input, file) => ({
      media: await addMedia(db, storage, {
        name: input.name,
        data: file ?? Buffer.alloc(0),
        panelId: input.panelId ?? null,
        backing: input.backing ?? false,
      }),
    }),
  }),
  'media.list': operation({
    input: z.object({}),
    output: z.object({ media: z.array(operatorMediaSchema) }),
    run: async ({ db }) => ({ media: await listMedia(db) }),
  }),
  'media.remove': operation({
    input: z.object({ key: textSchema().check(z.maxLength(512)) }),
    output: z.object({ removed: z.boolean() }),
    run: async ({ db, storage }, input) => ({ removed: await removeMedia(db, storage, input.key) }),
  }),
  'prices.list': operation({
    input: z.object({}),
    output: z.object({ prices: z.array(priceSchema) }),
    run: async (deps) => {
      // Also on a database no server has opened yet: the catalog is made the same way.
      await ensureCatalog(deps)
      return { prices: await listAllPrices(deps.db) }
    },
  }),
  'prices.create': operation({
    input: createPriceRequestSchema,
    output: z.object({ price: priceSchema }),
    run: async (deps, input) => {
      await ensureCatalog(deps)
      return { price: await createPrice(deps, input) }
    },
  }),
  'prices.archive': operation({
    input: z.object({ id: textSchema().check(z.maxLength(64)) }),
    output: z.object({ price: priceSchema }),
    run: async (deps, input) => ({ price: await archivePrice(deps, input.id) }),
  }),
  'billing.advance': operation({
    input: z.object({
      email: textSchema().check(z.minLength(3), z.maxLength(254)),
      days: z.int().check(z.minimum(1), z.maximum(3660)),
    }),
    output: z.object({ email: z.string(), clock: z.string() }),
    run: (deps, input) => advanceClock(deps, input),
  }),
  'billing.sync': operation({
    input: z.union([
      z.object({ email: textSchema().check(z.minLength(3), z.maxLength(254)) }),
      z.object({ all: z.literal(true) }),
    ]),
    output: z.object({ synced: z.number() }),
    run: (deps, input) => resyncCustomers(deps, input),
  }),
  'operators.add': operation({
    input: operatorAccountRequestSchema,
    output: roleChangeSchema,
    run: ({ db }, input) => addOperator(db, input.email),
  }),
  'operators.remove': operation({
    input: operatorAccountRequestSchema,
    output: roleChangeSchema,
    run: ({ db }, input) => removeOperator(db, input.email),
  }),
  'operators.list': operation({
    input: z.object({}),
    output: z.object({ operators: z.array(operatorSchema) }),
    run: async ({ db }) => ({ operators: await listOperators(db) }),
  }),
  'jobs.failed': operation({
    input: z.object({}),
    output: z.object({ jobs: z.array(failedJobSchema) }),
    run: async ({ executeSql }) => ({ jobs: await listFailedJobs(executeSql) }),
  }),
}

export type OperatorOperations = typeof operatorOperations
export type OperationName = keyof OperatorOperations
export type OperationInput<N extends OperationName> = z.infer<OperatorOperations[N]['input']>
export type OperationOutput<N extends OperationName> = z.infer<OperatorOperations[N]['output']>

/** The URL path of an operation under /api/operator (e.g. codes.create → /codes/create). */
export const operationPath = (name: OperationName) => `/${name.replace('.', '/')}`

/** Media files arrive whole in one request; videos can be large. */
export const OPERATOR_FILE_LIMIT = 200 * 1024 * 1024
