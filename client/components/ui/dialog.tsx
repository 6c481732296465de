import { lazy, Suspense, useEffect, useState } from 'react'
import { afterFirstPage } from '../../lib/after-first-page'
import type { DialogProps } from './modal-dialog'

const loadModal = () => import('./modal-dialog')
const ModalDialog = lazy(() => loadModal().then((module) => ({ default: module.ModalDialog })))

/**
 * A modal dialog; full-screen below 800 px wide (spec core §2, §9). Its code (Radix's dialog,
 * focus trap and scroll lock: 14 KB compressed) is not part of the page: a page with dialogs
 * asks for it once it is on screen, and a dialog renders nothing until it first opens. On My
 * Account and the client list that code arrived and ran before their content could show.
 */
export function Dialog(props: DialogProps) {
  const [needed, setNeeded] = useState(props.open)
  if (props.open && !needed) setNeeded(true)
  useEffect(() => {
    afterFirstPage(() => void loadModal().catch(() => {}))
  }, [])
  if (!needed) return null
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  )
}
