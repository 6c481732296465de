import * as RadixDialog from '@radix-ui/react-dialog'
import X from 'lucide-react/icons/x'
import { type ReactNode, useRef } from 'react'
import { useTranslation } from 'react-i18next'

export interface DialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description?: string
  children: ReactNode
  /**
   * Where focus goes on closing when the button that opened the dialog is gone (what the
   * dialog did removed it: a paused plan has no Pause); else the page would have it.
   */
  focusAfter?: () => HTMLElement | null | undefined
}

/**
 * The modal itself, with Radix's focus trap and scroll lock; pages use `Dialog` (./dialog.tsx),
 * which loads this module when it is first needed.
 */
export function ModalDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  focusAfter,
}: DialogProps) {
  const { t } = useTranslation()
  // Our dialogs open from plain buttons, not Radix Triggers, and Radix gives focus back only
  // to a Trigger: without this, closing one left focus on the page instead of its button.
  const opener = useRef<HTMLElement | null>(null)
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <RadixDialog.Content
          // Without a description Radix must be told so, or it warns about a missing one.
          {...(description ? {} : { 'aria-describedby': undefined })}
          className="fixed inset-0 z-50 flex flex-col overflow-y-auto bg-white p-6 shadow-2xl focus:outline-none min-[800px]:inset-auto min-[800px]:top-1/2 min-[800px]:left-1/2 min-[800px]:w-[480px] min-[800px]:-translate-x-1/2 min-[800px]:-translate-y-1/2 min-[800px]:rounded-2xl"
          data-testid="dialog"
          onOpenAutoFocus={() => {
            opener.current =
              document.activeElement instanceof HTMLElement ? document.activeElement : null
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            const back = opener.current?.isConnected ? opener.current : focusAfter?.()
            back?.focus()
          }}
        >
          <div className="mb-4 flex items-center gap-2">
            <RadixDialog.Title className="flex-1 text-xl font-semibold text-brand-900">
              {title}
            </RadixDialog.Title>
            <RadixDialog.Close
              aria-label={t('common.close')}
              className="rounded-full p-1.5 text-slate-600 hover:bg-slate-100"
            >
              <X aria-hidden className="size-5" />
            </RadixDialog.Close>
          </div>
          {description && (
            <RadixDialog.Description className="mb-4 text-slate-600">
              {description}
            </RadixDialog.Description>
          )}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  )
}
