import type { UseMutationResult } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { FormAlert } from '../../../components/ui/form-alert'
import { readServerError } from '../../../lib/form-mutation'
import { useNotifications } from '../../../lib/notifications'

/**
 * An action that needs no more than a yes: it says what will happen, does it once confirmed,
 * says so, and shows the server's reason in place when it is refused.
 */
export function ConfirmDialog<Variables>({
  open,
  onClose,
  title,
  effect,
  submitLabel,
  done,
  action,
  variables,
}: {
  open: boolean
  onClose: () => void
  title: string
  effect: string
  submitLabel: string
  /** Said once it is done. */
  done: string
  action: UseMutationResult<unknown, Error, Variables>
  variables: Variables
}) {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  const close = () => {
    action.reset()
    onClose()
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) close()
      }}
      title={title}
    >
      <div className="flex flex-col gap-4">
        <p
          className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="action-effect"
        >
          {effect}
        </p>
        <FormAlert
          message={
            action.isError
              ? readServerError(action.error, t('common.networkError')).message
              : undefined
          }
        />
        <div className="mt-2 flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={action.isPending}
            onClick={() =>
              action.mutate(variables, {
                onSuccess: () => {
                  notify('success', done)
                  close()
                },
              })
            }
          >
            {submitLabel}
          </Button>
        </div>
      </div>
    </Dialog>
  )
}
