import { useQueryClient } from '@tanstack/react-query'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import Menu from 'lucide-react/icons/menu'
import type { Ref } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { useFirstPageShown } from '../../lib/after-first-page'
import { useHeaderContent } from '../../lib/header-slot'
import { usePaymentInProgress } from '../../lib/payment-progress'
import { panelQueryKey } from '../../lib/query-keys'
import { titleKeyOf } from '../route-titles'
import { LanguageSelector } from './language-selector'

function useRouteTitle(): string {
  const { t, i18n } = useTranslation()
  const queryClient = useQueryClient()
  const { pathname } = useLocation()
  // A panel's page names its panel from the first paint when its texts are at hand, as in the
  // build's HTML of it (they come with the page), not "..." until the page's own code runs.
  const panelId = /^\/panel-info\/([^/]+)$/.exec(pathname)?.[1]
  const panel = panelId
    ? queryClient.getQueryData<{ name?: unknown }>(panelQueryKey(panelId, i18n.language))
    : undefined
  if (typeof panel?.name === 'string') return t('panels.panelTitle', { name: panel.name })
  const key = titleKeyOf(pathname)
  return key ? t(`titles.${key}`) : ''
}

export function Header({
  onOpenMenu,
  menuButtonRef,
}: {
  onOpenMenu: () => void
  /** The drawer gives focus back to this button when it closes. */
  menuButtonRef?: Ref<HTMLButtonElement>
}) {
  const { t } = useTranslation()
  const routeTitle = useRouteTitle()
  const page = useHeaderContent()
  const title = page.title ?? routeTitle
  const TitleTag = title ? 'h1' : 'div'
  const paying = usePaymentInProgress()
  const ready = useFirstPageShown()
  return (
    // A phone has room for a short title only: a long one ('Harmonizing Screen' beside the
    // timer, a panel's name with 'Panel') wraps onto a second line in a smaller size instead
    // of losing its end. Two lines and a subtitle still fit the bar's 56 px. The gaps are
    // narrower there so the longest word of 'Pantalla de armonización' fits beside the timer
    // at 320 px.
    <header className="flex min-h-14 items-center gap-1 bg-brand-700 px-2 text-white shadow-md sm:gap-2">
      <button
        ref={menuButtonRef}
        type="button"
        // The server's HTML of every page shows before its code runs; a click then would do nothing.
        disabled={!ready}
        onClick={onOpenMenu}
        aria-label={t('header.openMenu')}
        aria-haspopup="dialog"
        className="shrink-0 rounded-full p-2 hover:bg-white/15"
      >
        <Menu aria-hidden className="size-6" />
      </button>
      {/* Never narrower than the title's longest word (a flex item's own minimum): lines break
          between words only. Breaking anywhere let the page's header buttons squeeze the
          title into a letter a line ('Datos del cliente' on a phone). */}
      <div className="flex-1">
        {/* A blank title (spec core §2) is no heading: the page's own h1 names it then. */}
        <TitleTag
          className="text-[0.9375rem] leading-[1.125rem] font-semibold text-balance sm:text-lg sm:leading-tight"
          data-testid="header-title"
        >
          {title}
        </TitleTag>
        {page.subtitle && (
          <p className="text-xs leading-[0.875rem] text-brand-100" data-testid="header-subtitle">
            {page.subtitle}
          </p>
        )}
      </div>
      {page.actions}
      {/* Spec core §2: the header says so while a payment flow is pending. */}
      {paying && (
        <p
          role="status"
          data-testid="header-payment-progress"
          className="flex shrink-0 items-center gap-1.5 rounded-full bg-white/15 px-2.5 py-1 text-xs font-medium"
        >
          <LoaderCircle aria-hidden className="size-4 animate-spin" />
          <span className="sr-only sm:not-sr-only">{t('header.paymentInProgress')}</span>
        </p>
      )}
      <LanguageSelector />
    </header>
  )
}
