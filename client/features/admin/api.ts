import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query'
import { z } from 'zod/mini'
import { createCodesRequestSchema } from '../../../domain/access-codes'
import { okResponseSchema } from '../../../domain/api'
import { createPriceRequestSchema, priceSchema } from '../../../domain/billing'
import { type OperatorMedia, operatorMediaSchema } from '../../../domain/harmonize'
import { type MediaUploadRequest, mediaUploadSchema } from '../../../domain/media-uploads'
import {
  complimentarySchema,
  type GrantComplimentary,
  type MemberSearchQuery,
  memberDetailSchema,
  memberPageSchema,
  overviewSchema,
  type RefundRequest,
  refundResponseSchema,
} from '../../../domain/members'
import {
  auditPageSchema,
  codesPageSchema,
  factorCodeRequestSchema,
  factorSetUpRequestSchema,
  factorSetUpSchema,
  factorStatusSchema,
  failedJobsSchema,
  recoveryCodesSchema,
} from '../../../domain/operators'
import { ApiError, apiErrorFrom, apiHeaders, apiRequest, endpoint } from '../../lib/api-client'

/** Where the operator stands with the second factor in this session. */
export const factorStatusQuery = queryOptions({
  queryKey: ['admin', 'factor'],
  queryFn: () => apiRequest('/api/operator-factor', factorStatusSchema),
  // A refusal (403: not an operator) is final; asking again changes nothing.
  retry: false,
  staleTime: 0,
})

const confirmSetUp = endpoint(
  'POST',
  '/api/operator-factor/set-up/confirm',
  factorCodeRequestSchema,
  recoveryCodesSchema,
)
const verifyFactor = endpoint(
  'POST',
  '/api/operator-factor/verify',
  factorCodeRequestSchema,
  factorStatusSchema,
)

const startSetUp = endpoint(
  'POST',
  '/api/operator-factor/set-up',
  factorSetUpRequestSchema,
  factorSetUpSchema,
)

/** A new authenticator key, once the password says it is the operator, waiting for a code. */
export function useStartSetUp() {
  return useMutation({ mutationFn: startSetUp })
}

/** Confirms the new key with a code from it: the answer is the recovery codes, shown once. */
export function useConfirmSetUp() {
  return useMutation({ mutationFn: confirmSetUp })
}

/** Passes the second factor for this session; the console opens with the answer. */
export function useVerifyFactor() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: verifyFactor,
    onSuccess: (status) => queryClient.setQueryData(factorStatusQuery.queryKey, status),
  })
}

/** A query string of the values set, in a stable order. */
const queryString = (values: Record<string, string | undefined>) => {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(values)) if (value) search.set(key, value)
  const text = search.toString()
  return text ? `?${text}` : ''
}

/** The audit log, newest first, a page at a time: everyone's, or one member's. */
export const auditQuery = (member?: string) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'audit', member ?? 'all'],
    queryFn: ({ pageParam }) =>
      apiRequest(`/api/admin/audit${queryString({ member, after: pageParam })}`, auditPageSchema),
    initialPageParam: '',
    getNextPageParam: (page) => page.next ?? undefined,
  })

/** How the business stands now. */
export const overviewQuery = queryOptions({
  queryKey: ['admin', 'overview'],
  queryFn: () => apiRequest('/api/admin/overview', overviewSchema),
})

/** Members matching the search and filters, newest first, a page at a time. */
export const membersQuery = (search: Omit<MemberSearchQuery, 'after'>) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'members', search],
    queryFn: ({ pageParam }) =>
      apiRequest(
        `/api/admin/members${queryString({ ...search, after: pageParam })}`,
        memberPageSchema,
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.next ?? undefined,
  })

/** One member's page. */
export const memberQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'member', id],
    queryFn: () => apiRequest(`/api/admin/members/${encodeURIComponent(id)}`, memberDetailSchema),
  })

/** After a change to a member: their page, the lists that show them, and the log. */
function useMemberChanged(id: string) {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['admin', 'member', id] }),
      queryClient.invalidateQueries({ queryKey: ['admin', 'members'] }),
      queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] }),
      queryClient.invalidateQueries({ queryKey: ['admin', 'overview'] }),
    ])
}

/** "Grant complimentary access" to the member. */
export function useGrantComplimentary(id: string) {
  const changed = useMemberChanged(id)
  return useMutation({
    mutationFn: (grant: GrantComplimentary) =>
      apiRequest(
        `/api/admin/members/${encodeURIComponent(id)}/complimentary`,
        complimentarySchema,
        {
          method: 'POST',
          body: JSON.stringify(grant),
        },
      ),
    onSuccess: changed,
  })
}

/** Ends the member's complimentary access now. */
export const useEndComplimentary = (id: string) =>
  useMemberAction<{ reason: string }>(id, 'complimentary/end')

/** A POST on the member that answers `{ ok: true }`, with a body or none. */
function useMemberAction<Body extends object | undefined>(id: string, action: string) {
  const changed = useMemberChanged(id)
  return useMutation({
    mutationFn: (body: Body) =>
      apiRequest(`/api/admin/members/${encodeURIComponent(id)}/${action}`, okResponseSchema, {
        method: 'POST',
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
    onSuccess: changed,
  })
}

/** Signs the member out on every device. */
export const useSignOutEverywhere = (id: string) => useMemberAction<undefined>(id, 'sign-out')
/** Blocks the account, with why. */
export const useBlockMember = (id: string) => useMemberAction<{ reason: string }>(id, 'block')
/** Unblocks the account, with why. */
export const useUnblockMember = (id: string) => useMemberAction<{ reason: string }>(id, 'unblock')

/** Ends the member's running plan now, or at the end of its period. */
export function useCancelPlan(id: string, when: 'now' | 'period-end') {
  const changed = useMemberChanged(id)
  return useMutation({
    mutationFn: ({ reason }: { reason: string }) =>
      apiRequest(`/api/admin/members/${encodeURIComponent(id)}/plan/cancel`, okResponseSchema, {
        method: 'POST',
        body: JSON.stringify({ reason, when }),
      }),
    onSuccess: changed,
  })
}

/** Gives back part or all of one of the member's paid invoices. */
export function useRefund(id: string) {
  const changed = useMemberChanged(id)
  return useMutation({
    mutationFn: (refund: RefundRequest) =>
      apiRequest(`/api/admin/members/${encodeURIComponent(id)}/refund`, refundResponseSchema, {
        method: 'POST',
        body: JSON.stringify(refund),
      }),
    // Refused or failed, the page reads again what is left to give back before another try.
    onSettled: changed,
  })
}

/** Mails one of the member's paid invoices again. */
export function useResendInvoice(id: string) {
  const changed = useMemberChanged(id)
  return useMutation({
    mutationFn: (invoiceId: string) =>
      apiRequest(
        `/api/admin/members/${encodeURIComponent(id)}/invoices/${encodeURIComponent(invoiceId)}/resend`,
        z.object({ to: z.array(z.string()) }),
        { method: 'POST' },
      ),
    onSuccess: changed,
  })
}

/** Access codes with their state, newest first, a page at a time; those matching `q` if given. */
export const codesQuery = (q: string) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'codes', q],
    queryFn: ({ pageParam }) =>
      apiRequest(`/api/admin/codes${queryString({ q, after: pageParam })}`, codesPageSchema),
    initialPageParam: '',
    getNextPageParam: (page) => page.next ?? undefined,
  })

const createCodes = endpoint(
  'POST',
  '/api/admin/codes',
  createCodesRequestSchema,
  z.object({ codes: z.array(z.string()) }),
)

/** New access codes; the list and the log show them. */
export function useCreateCodes() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createCodes,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['admin', 'codes'] }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] }),
      ]),
  })
}

/** Revokes a code; whoever redeemed it loses the access it gave. */
export function useRevokeCode() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (code: string) =>
      apiRequest('/api/admin/codes/revoke', z.object({ revoked: z.boolean() }), {
        method: 'POST',
        body: JSON.stringify({ code }),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  })
}

/** Every price of the product, on sale or archived, newest first. */
export const pricesQuery = queryOptions({
  queryKey: ['admin', 'prices'],
  queryFn: () => apiRequest('/api/admin/prices', z.object({ prices: z.array(priceSchema) })),
})

const createPrice = endpoint(
  'POST',
  '/api/admin/prices',
  createPriceRequestSchema,
  z.object({ price: priceSchema }),
)

/** Puts a new price on sale. */
export function useCreatePrice() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createPrice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  })
}

/** Takes a price off sale. */
export function useArchivePrice() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest('/api/admin/prices/archive', z.object({ price: priceSchema }), {
        method: 'POST',
        body: JSON.stringify({ id }),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  })
}

/** Jobs that gave up after their retries, newest first. */
export const failedJobsQuery = queryOptions({
  queryKey: ['admin', 'jobs'],
  queryFn: () => apiRequest('/api/admin/jobs', failedJobsSchema),
})

/** Runs a job that gave up once more; the list and the log show it. */
export function useRetryJob() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest('/api/admin/jobs/retry', okResponseSchema, {
        method: 'POST',
        body: JSON.stringify({ id }),
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: failedJobsQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'overview'] }),
      ]),
  })
}

/** The panels' videos and the backing tracks, by key. */
export const mediaQuery = queryOptions({
  queryKey: ['admin', 'media'],
  queryFn: () => apiRequest('/api/admin/media', z.object({ media: z.array(operatorMediaSchema) })),
})

/** Removes a media file; the list and the log show it. */
export function useRemoveMedia() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (key: string) =>
      apiRequest('/api/admin/media/remove', okResponseSchema, {
        method: 'POST',
        body: JSON.stringify({ key }),
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: mediaQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] }),
      ]),
  })
}

/**
 * A part that got no answer of ours (a dropped link, a proxy's 502, 503 or 504) is tried this
 * many times in all before the upload gives up.
 */
const PART_TRIES = 3
const isPassing = (error: unknown) =>
  error instanceof ApiError && [0, 502, 503, 504].includes(error.status)

const stopped = () => new DOMException('The upload was stopped.', 'AbortError')

/** Waits `ms`, or less when `signal` stops it (then rejects as stopped). */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(stopped())
      },
      { once: true },
    )
  })

/**
 * Sends one part, telling how much of it has gone (fetch cannot tell an upload's progress;
 * XMLHttpRequest can). Settles when the server kept it, or with an ApiError carrying the
 * server's reason; `signal` stops it.
 */
function sendPart(
  url: string,
  part: Blob,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(stopped())
    const request = new XMLHttpRequest()
    request.open('PUT', url)
    for (const [name, value] of apiHeaders()) request.setRequestHeader(name, value)
    request.setRequestHeader('content-type', 'application/octet-stream')
    request.upload.onprogress = (event) => onProgress(event.loaded)
    request.onload = () => {
      if (request.status === 200) return resolve()
      let body: unknown = null
      try {
        body = JSON.parse(request.responseText)
      } catch {
        // Not ours (a proxy's page, in its own words and language): kept by its status only.
        return reject(new ApiError(request.status, ''))
      }
      reject(apiErrorFrom(request.status, request.statusText, body))
    }
    request.onerror = () => reject(new ApiError(0, ''))
    request.onabort = () => reject(stopped())
    signal.addEventListener('abort', () => request.abort(), { once: true })
    request.send(part)
  })
}

/**
 * Uploads a media file in parts (ADR 0032), telling how much has gone. A part lost on the way is
 * sent again; once all are sent, `onSaving` says the server is putting them together, which can
 * no longer be stopped. Settles with the stored media, or an ApiError with the server's reason;
 * `signal` stops the upload, and the parts already sent are deleted.
 */
export async function uploadMediaFile(
  file: File,
  target: { panelId: string | null; backing: boolean },
  onProgress: (sent: number, total: number) => void,
  signal: AbortSignal,
  onSaving: () => void,
): Promise<OperatorMedia> {
  const { upload } = await apiRequest(
    '/api/admin/media/uploads',
    z.object({ upload: mediaUploadSchema }),
    {
      method: 'POST',
      body: JSON.stringify({
        name: file.name,
        panelId: target.panelId,
        backing: target.backing,
        size: file.size,
      } satisfies MediaUploadRequest),
      signal,
    },
  )
  const path = `/api/admin/media/uploads/${upload.id}`
  try {
    for (let index = 0; index < upload.parts; index++) {
      const start = index * upload.partBytes
      const part = file.slice(start, start + upload.partBytes)
      for (let tries = 1; ; tries++) {
        try {
          await sendPart(
            `${path}/parts/${index}`,
            part,
            (loaded) => onProgress(start + loaded, file.size),
            signal,
          )
          break
        } catch (error) {
          if (!isPassing(error) || tries === PART_TRIES) throw error
          // The link dropped: wait a moment for it to come back, unless stopped meanwhile.
          await pause(1000 * tries, signal)
        }
      }
    }
  } catch (error) {
    // Stopped, refused or cut off: the parts already sent are not kept (a refusal of the file's
    // type dropped them already; deleting again is harmless).
    // Unreachable now, they are dropped a day later.
    await apiRequest(path, okResponseSchema, { method: 'DELETE' }).catch(() => {})
    throw error
  }
  onProgress(file.size, file.size)
  onSaving()
  return (
    await apiRequest(`${path}/complete`, z.object({ media: operatorMediaSchema }), {
      method: 'POST',
    })
  ).media
}
