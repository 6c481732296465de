import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { afterFirstPage } from '../../lib/after-first-page'
import { loadOnce } from '../../lib/load-once'
import { useNotifications } from '../../lib/notifications'
import type { DialogProps } from './modal-dialog'

type ModalModule = typeof import('./modal-dialog')

let loaded: ModalModule | undefined
// Should it fail, the next dialog that opens asks again.
const loadModal = loadOnce(() =>
  import('./modal-dialog').then((module) => {
    loaded = module
    return module
  }),
)

/**
 * A modal dialog; full-screen below 800 px wide (spec core §2, §9). Its code (Radix's dialog,
 * focus trap and scroll lock: 14 KB compressed) is not part of the page: a page with dialogs
 * asks for it once it is on screen, and a dialog renders nothing until it first opens. On My
 * Account and the client list that code arrived and ran before their content could show.
 * Should it not arrive when a dialog opens, the dialog says so and closes; the page stays.
 */
export function Dialog(props: DialogProps) {
  const { open, onOpenChange } = props
  const { t } = useTranslation()
  const { notify } = useNotifications()
  const [modal, setModal] = useState(loaded)
  useEffect(() => {
    afterFirstPage(() => void loadModal().catch(() => {}))
  }, [])
  useEffect(() => {
    if (!open || modal) return
    let current = true
    loadModal().then(
      (module) => {
        if (current) setModal(module)
      },
      () => {
        if (!current) return
        notify('error', t('common.networkError'))
        onOpenChange(false)
      },
    )
    return () => {
      current = false
    }
  }, [open, modal, notify, onOpenChange, t])
  if (!modal) return null
  return <modal.ModalDialog {...props} />
}
