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

export const affirmationsResponseSchema = z.object({ affirmations: z.array(z.string()) })
