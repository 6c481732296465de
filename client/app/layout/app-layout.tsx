import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Outlet } from 'react-router'
import { Snackbar } from '../../components/ui/snackbar'
import { useNotifications } from '../../lib/notifications'
import { Header } from './header'

// The drawer's code loads the first time it opens: the first render does not need it.
const SideMenu = lazy(() => import('./side-menu').then((m) => ({ default: m.SideMenu })))

/** Tells the user when the network drops (spec: info notice 'Sorry, it seems that you are offline'). */
function useOfflineNotice() {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  useEffect(() => {
    const handleOffline = () => notify('info', t('network.offline'))
    window.addEventListener('offline', handleOffline)
    return () => window.removeEventListener('offline', handleOffline)
  }, [notify, t])
}

export function AppLayout() {
  const [menuOpen, setMenuOpen] = useState(false)
  const [menuLoaded, setMenuLoaded] = useState(false)
  const menuButtonRef = useRef<HTMLButtonElement>(null)
  useOfflineNotice()
  const handleOpenMenu = () => {
    setMenuLoaded(true)
    setMenuOpen(true)
  }
  return (
    <div className="flex min-h-full flex-col">
      <Header onOpenMenu={handleOpenMenu} menuButtonRef={menuButtonRef} />
      {menuLoaded && (
        <Suspense fallback={null}>
          <SideMenu open={menuOpen} onOpenChange={setMenuOpen} returnFocusTo={menuButtonRef} />
        </Suspense>
      )}
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <Snackbar />
    </div>
  )
}
