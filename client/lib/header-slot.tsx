import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react'

/** What a page adds to the shared header: a title that replaces the route's, a subtitle, actions. */
export interface HeaderContent {
  title?: string
  subtitle?: string
  actions?: ReactNode
}

const HeaderSlotContext = createContext<{
  content: HeaderContent
  setContent: (content: HeaderContent) => void
} | null>(null)

export function HeaderSlotProvider({ children }: { children: ReactNode }) {
  const [content, setContent] = useState<HeaderContent>({})
  const value = useMemo(() => ({ content, setContent }), [content])
  return <HeaderSlotContext value={value}>{children}</HeaderSlotContext>
}

/** The header's page-provided content (read by the header). */
export function useHeaderContent(): HeaderContent {
  return useContext(HeaderSlotContext)?.content ?? {}
}

/** Lets a page fill the header while it is shown; cleared when the page goes away. */
export function useHeaderSlot(content: HeaderContent) {
  const setContent = useContext(HeaderSlotContext)?.setContent
  const { title, subtitle, actions } = content
  useEffect(() => {
    setContent?.({ title, subtitle, actions })
  }, [setContent, title, subtitle, actions])
  useEffect(() => () => setContent?.({}), [setContent])
}
