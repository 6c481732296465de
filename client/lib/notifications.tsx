import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react'

export type Severity = 'success' | 'info' | 'warning' | 'error'

export interface Notification {
  id: number
  severity: Severity
  message: string
}

interface NotificationsValue {
  current: Notification | null
  notify(severity: Severity, message: string): void
  dismiss(id: number): void
}

const NotificationsContext = createContext<NotificationsValue | null>(null)

/** The one notification state behind the shared snackbar: a newer message replaces the older. */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<Notification | null>(null)
  const notify = useCallback((severity: Severity, message: string) => {
    setCurrent((previous) => ({ id: (previous?.id ?? 0) + 1, severity, message }))
  }, [])
  const dismiss = useCallback((id: number) => {
    setCurrent((previous) => (previous?.id === id ? null : previous))
  }, [])
  const value = useMemo(() => ({ current, notify, dismiss }), [current, notify, dismiss])
  return <NotificationsContext value={value}>{children}</NotificationsContext>
}

export function useNotifications(): NotificationsValue {
  const value = useContext(NotificationsContext)
  if (!value) throw new Error('useNotifications must be used inside NotificationsProvider')
  return value
}
