import { QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { I18nextProvider } from 'react-i18next'
import { HeaderSlotProvider } from '../lib/header-slot'
import { i18n } from '../lib/i18n'
import { NotificationsProvider } from '../lib/notifications'
import { queryClient } from '../lib/query-client'

/**
 * What every page renders inside, the same in the browser and in the build's prerendering
 * (client/app/prerender.tsx): a page's HTML hydrates only if both trees are the same.
 */
export function App({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <NotificationsProvider>
          <HeaderSlotProvider>{children}</HeaderSlotProvider>
        </NotificationsProvider>
      </QueryClientProvider>
    </I18nextProvider>
  )
}
