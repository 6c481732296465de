import * as Dialog from '@radix-ui/react-dialog'
import type { LucideIcon } from 'lucide-react'
import AudioWaveform from 'lucide-react/icons/audio-waveform'
import BookOpen from 'lucide-react/icons/book-open'
import CircleDot from 'lucide-react/icons/circle-dot'
import Droplets from 'lucide-react/icons/droplets'
import FileText from 'lucide-react/icons/file-text'
import House from 'lucide-react/icons/house'
import Info from 'lucide-react/icons/info'
import KeyRound from 'lucide-react/icons/key-round'
import LifeBuoy from 'lucide-react/icons/life-buoy'
import LogIn from 'lucide-react/icons/log-in'
import LogOut from 'lucide-react/icons/log-out'
import MailCheck from 'lucide-react/icons/mail-check'
import ShieldCheck from 'lucide-react/icons/shield-check'
import ShieldAlert from 'lucide-react/icons/shield-exclamation-point'
import Sparkles from 'lucide-react/icons/sparkles'
import UserCog from 'lucide-react/icons/user-cog'
import UserPlus from 'lucide-react/icons/user-plus'
import UserRound from 'lucide-react/icons/user-round'
import Users from 'lucide-react/icons/users'
import X from 'lucide-react/icons/x'
import type { RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import { NavLink } from 'react-router'
import { SIDE_MENU_WIDTH_PX } from '../../../domain/constants'
import { LOGIN_PATH } from '../../../domain/routes'
import { UserAvatar } from '../../features/account/public'
import { useSession } from '../../lib/session'

interface MenuItem {
  label: string
  to: string
  Icon: LucideIcon
}

// Order and grouping follow spec core §2 "Side menu".
const INFO_ITEMS: MenuItem[] = [
  { label: 'about', to: '/about', Icon: Info },
  { label: 'solfeggio', to: '/solfeggio-frequencies', Icon: AudioWaveform },
  { label: 'disclaimer', to: '/disclaimer', Icon: ShieldAlert },
  { label: 'messages', to: '/messages', Icon: Droplets },
  { label: 'privacy', to: '/privacy-policy', Icon: FileText },
  { label: 'howTo', to: '/how-to', Icon: BookOpen },
]

const MAIN_ITEMS: MenuItem[] = [
  { label: 'home', to: '/home', Icon: House },
  { label: 'userRecords', to: '/aura-user-record', Icon: Users },
  { label: 'aura', to: '/user-details', Icon: Sparkles },
  { label: 'chakra', to: '/chakra-scan', Icon: CircleDot },
  { label: 'myAccount', to: '/my-account', Icon: UserCog },
  { label: 'support', to: '/support', Icon: LifeBuoy },
  { label: 'logout', to: '/logout', Icon: LogOut },
]

/** For operators only; /admin itself refuses anyone else. */
const CONSOLE_ITEM: MenuItem = { label: 'console', to: '/admin', Icon: ShieldCheck }

// Every page of the member's menu needs an account: a visitor is offered the ways into one.
const VISITOR_ITEMS: MenuItem[] = [
  { label: 'signIn', to: LOGIN_PATH, Icon: LogIn },
  { label: 'signUp', to: '/signup', Icon: UserPlus },
  { label: 'confirmCode', to: '/signup-confirm', Icon: MailCheck },
  { label: 'forgotPassword', to: '/forgot-password', Icon: KeyRound },
]

function MenuLink({ item, onNavigate }: { item: MenuItem; onNavigate: () => void }) {
  const { t } = useTranslation()
  return (
    <li>
      <NavLink
        to={item.to}
        onClick={onNavigate}
        className={({ isActive }) =>
          `flex items-center gap-3 rounded-lg px-3 py-2.5 text-[15px] hover:bg-brand-100 ${
            isActive ? 'bg-brand-100 font-semibold text-brand-800' : 'text-slate-800'
          }`
        }
      >
        <item.Icon aria-hidden className="size-5 text-brand-600" />
        {t(`menu.${item.label}`)}
      </NavLink>
    </li>
  )
}

/**
 * The left drawer, 279 px wide: a welcome line, then for a member the information pages and the
 * app (spec core §2), for a visitor the ways to sign in or up.
 */
export function SideMenu({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The button that opened the drawer: focus goes back to it when the drawer closes. */
  returnFocusTo: RefObject<HTMLElement | null>
}) {
  const { t } = useTranslation()
  const { user } = useSession()
  const close = () => onOpenChange(false)
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          aria-describedby={undefined}
          style={{ width: SIDE_MENU_WIDTH_PX }}
          className="fixed inset-y-0 left-0 z-50 flex max-w-full flex-col overflow-y-auto bg-white shadow-2xl focus:outline-none"
          data-testid="side-menu"
          // Radix returns focus to its own Trigger; the menu button lives in the header instead.
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            returnFocusTo.current?.focus()
          }}
        >
          <div className="flex items-center gap-3 bg-brand-700 px-4 py-5 text-white">
            <UserAvatar
              name={user?.name ?? ''}
              avatarUpdatedAt={user?.avatarUpdatedAt ?? null}
              className="size-11 bg-white/20"
              fallback={<UserRound aria-hidden className="size-6" />}
            />
            <Dialog.Title className="line-clamp-2 min-w-0 flex-1 font-semibold leading-snug">
              {user ? t('menu.welcomeName', { name: user.name }) : t('menu.welcome')}
            </Dialog.Title>
            <Dialog.Close
              aria-label={t('menu.close')}
              className="rounded-full p-1.5 hover:bg-white/15"
            >
              <X aria-hidden className="size-5" />
            </Dialog.Close>
          </div>
          <nav aria-label={t('menu.label')} className="flex flex-col gap-2 p-2">
            {user ? (
              <>
                <ul>
                  {INFO_ITEMS.map((item) => (
                    <MenuLink key={item.to} item={item} onNavigate={close} />
                  ))}
                </ul>
                <hr className="border-slate-200" />
                <ul>
                  {MAIN_ITEMS.map((item) => (
                    <MenuLink key={item.to} item={item} onNavigate={close} />
                  ))}
                </ul>
                {user.operator && (
                  <>
                    <hr className="border-slate-200" />
                    <ul>
                      <MenuLink item={CONSOLE_ITEM} onNavigate={close} />
                    </ul>
                  </>
                )}
              </>
            ) : (
              <ul>
                {VISITOR_ITEMS.map((item) => (
                  <MenuLink key={item.to} item={item} onNavigate={close} />
                ))}
              </ul>
            )}
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
