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
    // No scroll anchoring: when the snackbar's row pushes the page down, the browser would
    // scroll by as much to keep what was on screen in place, right under the snackbar.
    <div className="flex min-h-full flex-col [overflow-anchor:none]">
      {/* The snackbar is a row under the header, in the header's sticky block, not a layer over
          the page: over it, on a phone, it hid the header or the button just pressed. While it
          shows, the page moves down by its height (and back when it goes). */}
      <div className="sticky top-0 z-30">
        <Header onOpenMenu={handleOpenMenu} menuButtonRef={menuButtonRef} />
        <Snackbar />
      </div>
      {menuLoaded && (
        <Suspense fallback={null}>
          <SideMenu open={menuOpen} onOpenChange={setMenuOpen} returnFocusTo={menuButtonRef} />
        </Suspense>
      )}
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <PwaBanners />
    </div>
  )
}
