import { prerender } from 'react-dom/static'
import { StaticRouter } from 'react-router'
import type { Language } from '../../domain/i18n'
import { setLanguage } from '../lib/i18n'
import { App } from './app'
import { AppRoutes } from './routes'

/**
 * The build's entry for prerendering (scripts/prerender-pages.ts): the page at `url` as HTML,
 * in `language`, with nobody signed in yet, the tree the browser's first render hydrates
 * (client/app/main.tsx). React waits for every lazy page and its texts before it answers.
 */
export async function renderPage(url: string, language: Language): Promise<string> {
  await setLanguage(language)
  // A part that fails is otherwise left for the browser to render, silently: fail the build.
  const errors: unknown[] = []
  const { prelude } = await prerender(
    <App>
      <StaticRouter location={url}>
        <AppRoutes />
      </StaticRouter>
    </App>,
    { onError: (error) => void errors.push(error) },
  )
  const html = await new Response(prelude).text()
  if (errors.length > 0)
    throw new AggregateError(errors, `Prerendering ${url} (${language}) failed`)
  return html
}
