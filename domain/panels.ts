import { z } from 'zod/mini'

export const panelSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  icon: z.string(),
  palette: z.tuple([z.string(), z.string(), z.string()]),
  solfeggioHz: z.number(),
})
export type PanelSummary = z.infer<typeof panelSummarySchema>

export const panelDetailSchema = z.extend(panelSummarySchema, {
  info: z.string(),
  ingredients: z.array(z.string()),
})
export type PanelDetail = z.infer<typeof panelDetailSchema>

export const panelListResponseSchema = z.object({ panels: z.array(panelSummarySchema) })
export const panelParamsSchema = z.object({ id: z.string().check(z.regex(/^\d{2}$/)) })

/** What a session needs to run: the words to rotate and the sound's frequency. */
export const sessionContentSchema = z.object({
  sessionId: z.number(),
  startedAt: z.string(),
  panel: panelDetailSchema,
  affirmations: z.array(z.string()),
})
export type SessionContent = z.infer<typeof sessionContentSchema>

export const startSessionRequestSchema = z.object({ panelId: z.string().check(z.regex(/^\d{2}$/)) })
export const sessionParamsSchema = z.object({ id: z.coerce.number().check(z.int(), z.positive()) })

export const recentSessionsResponseSchema = z.object({
  sessions: z.array(
    z.object({
      id: z.number(),
      panelId: z.string(),
      panelName: z.string(),
      startedAt: z.string(),
      completedAt: z.nullable(z.string()),
    }),
  ),
})

export const affirmationsResponseSchema = z.object({ affirmations: z.array(z.string()) })
