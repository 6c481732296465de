import { Menu } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { useHeaderContent } from '../../lib/header-slot'
import { titleKeyOf } from '../route-titles'
import { LanguageSelector } from './language-selector'

function useRouteTitle(): string {
  const { t } = useTranslation()
  const key = titleKeyOf(useLocation().pathname)
  return key ? t(`titles.${key}`) : ''
}

export function Header({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { t } = useTranslation()
  const routeTitle = useRouteTitle()
  const page = useHeaderContent()
  const title = page.title ?? routeTitle
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-2 bg-brand-700 px-2 text-white shadow-md">
      <button
        type="button"
        onClick={onOpenMenu}
        aria-label={t('header.openMenu')}
        aria-haspopup="dialog"
        className="rounded-full p-2 hover:bg-white/15"
      >
        <Menu aria-hidden className="size-6" />
      </button>
      <div className="min-w-0 flex-1">
        <h1 className="truncate text-lg font-semibold leading-tight" data-testid="header-title">
          {title}
        </h1>
        {page.subtitle && (
          <p className="truncate text-xs text-brand-100" data-testid="header-subtitle">
            {page.subtitle}
          </p>
        )}
      </div>
      {page.actions}
      <LanguageSelector />
    </header>
  )
}
