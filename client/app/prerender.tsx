import { prerender } from 'react-dom/static'
import { StaticRouter } from 'react-router'
import type { Language } from '../../domain/i18n'
import type { PageContent, PageQuery } from '../../domain/routes'
import { setLanguage } from '../lib/i18n'
import { panelQuery, panelsQuery } from '../lib/panel-queries'
import { queryClient } from '../lib/query-client'
import { App } from './app'
import { AppRoutes } from './routes'

/**
 * The build's entry for prerendering (scripts/prerender-pages.ts): the page at `url` as HTML,
 * in `language`, with nobody signed in yet, the tree the browser's first render hydrates
 * (client/app/main.tsx), and the queries it was rendered with, which the browser takes before
 * it hydrates (client/lib/prerendered.ts). React waits for every lazy page and its texts before
 * it answers.
 */
export async function renderPage(
  url: string,
  language: Language,
  content: PageContent = {},
): Promise<{ html: string; queries: PageQuery[] }> {
  await setLanguage(language)
  queryClient.clear()
  const queries: PageQuery[] = []
  if (content.panels) {
    queries.push({ queryKey: panelsQuery(language).queryKey, data: content.panels })
  }
  if (content.panel) {
    const { queryKey } = panelQuery(content.panel.id, language)
    queries.push({ queryKey, data: content.panel })
  }
  for (const { queryKey, data } of queries) queryClient.setQueryData(queryKey, data)
  // A part that fails is otherwise left for the browser to render, silently: fail the build.
  const errors: unknown[] = []
  const { prelude } = await prerender(
    <App>
      <StaticRouter location={url}>
        <AppRoutes />
      </StaticRouter>
    </App>,
    {
      onError: (error) => void errors.push(error),
      // React moves a boundary larger than this (12.8 kB by default) out of its place, behind a
      // fallback and a script that swaps it in: on /home the panel grid came after the spinner.
      // A page built ahead has nothing to stream: it is all in place.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  )
  const html = await new Response(prelude).text()
  if (errors.length > 0)
    throw new AggregateError(errors, `Prerendering ${url} (${language}) failed`)
  return { html, queries }
}
