import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
} from 'react'

export type Severity = 'success' | 'info' | 'warning' | 'error'

export interface Notification {
  id: number
  severity: Severity
  message: string
}

interface NotificationsValue {
  current: Notification | null
  /** Shows a message, replacing the one on screen; returns its id for `dismiss`. */
  notify(severity: Severity, message: string): number
  /** Hides that message, if it is still the one shown. */
  dismiss(id: number): void
  /** Hides whatever is shown: it was about a state that no longer holds. */
  clear(): void
}

const NotificationsContext = createContext<NotificationsValue | null>(null)

/** The one notification state behind the shared snackbar: a newer message replaces the older. */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<Notification | null>(null)
  const lastId = useRef(0)
  const notify = useCallback((severity: Severity, message: string) => {
    lastId.current += 1
    const id = lastId.current
    setCurrent({ id, severity, message })
    return id
  }, [])
  const dismiss = useCallback((id: number) => {
    setCurrent((previous) => (previous?.id === id ? null : previous))
  }, [])
  const clear = useCallback(() => setCurrent(null), [])
  const value = useMemo(
    () => ({ current, notify, dismiss, clear }),
    [current, notify, dismiss, clear],
  )
  return <NotificationsContext value={value}>{children}</NotificationsContext>
}

export function useNotifications(): NotificationsValue {
  const value = useContext(NotificationsContext)
  if (!value) throw new Error('useNotifications must be used inside NotificationsProvider')
  return value
}
