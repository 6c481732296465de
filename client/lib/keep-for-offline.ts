import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import type { Language } from '../../domain/i18n'
import { afterFirstPage } from './after-first-page'
import { harmonizeMediaQuery } from './harmonize-media'
import { currentLanguage } from './i18n'
import { recall, remember } from './offline-cache'
import { affirmationsQuery, panelQuery, panelsQuery } from './panel-queries'

// Here rather than in a feature: /home (panels) and the harmonizing screen (harmonize) both
// start it, and neither feature imports the other.

// Kept with the offline copies, so signing out (which clears them all) also forgets that they
// were made, and the next member gets their own.
const readyKey = (language: Language) => `offline-ready:${language}`
/** How long a full preparation counts; panels opened meanwhile refresh their own copies. */
const PREPARE_EVERY_MS = 60 * 60_000
/** Requests in flight at once while preparing: few enough to leave the page room. */
const PREPARE_AT_ONCE = 3
// Preparations running now, so two pages asking at once fetch everything once.
const running = new Set<Language>()

/**
 * Fetches what a session needs offline, for every panel, into the query cache and the copies
 * kept on the device: the panel list, each panel's info and ingredients, the affirmations and
 * the media list (which saved files belong to which panel). Rejects when any of it could not
 * be had, so it is tried again rather than counted as done.
 */
export async function prepareForOffline(
  queryClient: QueryClient,
  language: Language,
): Promise<void> {
  const panels = await queryClient.fetchQuery(panelsQuery(language))
  await inTurns(
    [
      () => queryClient.fetchQuery(affirmationsQuery(language)),
      () => queryClient.fetchQuery(harmonizeMediaQuery()),
      ...panels.map((panel) => () => queryClient.fetchQuery(panelQuery(panel.id, language))),
    ],
    PREPARE_AT_ONCE,
  )
}

/**
 * Once the server says the member has access, keeps every panel ready for a session without
 * network (PRODUCT.md principle 4): after one visit online, any panel opens and plays offline,
 * not only those already opened. Done at most hourly per language; the server has no endpoint
 * returning every panel at once, so this asks for each (about twenty small answers).
 */
export function useKeepForOffline(hasAccess: boolean | undefined) {
  const queryClient = useQueryClient()
  const { i18n } = useTranslation()
  // Read so a language switch prepares the new language's texts too.
  const language = i18n.language
  useEffect(() => {
    if (!hasAccess || !language) return
    // Not cancelled when the page goes: a member who moves on within the moment still gets
    // everything kept (`running` and the ready mark stop a second run).
    afterFirstPage(() => {
      const current = currentLanguage()
      if (running.has(current) || recall(readyKey(current), PREPARE_EVERY_MS)) return
      if (typeof navigator !== 'undefined' && !navigator.onLine) return
      running.add(current)
      prepareForOffline(queryClient, current)
        .then(() => remember(readyKey(current), true))
        .catch(() => {
          // Offline or refused: the next page that asks tries again.
        })
        .finally(() => running.delete(current))
    })
  }, [hasAccess, language, queryClient])
}

/**
 * Runs `steps` a few at a time, giving the page the main thread back between them: twenty-odd
 * answers, checked and copied onto the device at once, held a phone's main thread for a tenth
 * of a second. Rejects with the first failure and starts no step after it.
 */
async function inTurns(steps: Array<() => Promise<unknown>>, atOnce: number): Promise<void> {
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < steps.length) {
      const step = steps[next++]
      try {
        await step?.()
      } catch (error) {
        failed = true
        throw error
      }
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
  }
  await Promise.all(Array.from({ length: Math.min(atOnce, steps.length) }, worker))
}
