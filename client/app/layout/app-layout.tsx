import { lazy, Suspense, useRef, useState } from 'react'
import { Outlet } from 'react-router'
import { Snackbar } from '../../components/ui/snackbar'
import { useOfflineNotice } from '../../lib/network-status'
import { PwaBanners } from '../banners/pwa-banners'
import { Header } from './header'

// The drawer's code loads the first time it opens: the first render does not need it.
const SideMenu = lazy(() => import('./side-menu').then((m) => ({ default: m.SideMenu })))

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
      <PwaBanners />
    </div>
  )
}
