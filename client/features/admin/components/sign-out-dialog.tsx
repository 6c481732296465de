import { useTranslation } from 'react-i18next'
import type { MemberDetail } from '../../../../domain/members'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { FormAlert } from '../../../components/ui/form-alert'
import { readServerError } from '../../../lib/form-mutation'
import { useNotifications } from '../../../lib/notifications'
import { useSignOutEverywhere } from '../api'

/** "Sign out everywhere": says what it does, and does it once confirmed. */
export function SignOutDialog({
  member,
  open,
  onOpenChange,
}: {
  member: MemberDetail
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  const signOut = useSignOutEverywhere(member.account.id)
  const close = () => {
    signOut.reset()
    onOpenChange(false)
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={t('admin.account.signOut')}
    >
      <div className="flex flex-col gap-4">
        <p
          className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="action-effect"
        >
          {t('admin.account.signOutEffect', {
            email: member.account.email,
            count: member.account.sessions,
          })}
        </p>
        <FormAlert
          message={
            signOut.isError
              ? readServerError(signOut.error, t('common.networkError')).message
              : undefined
          }
        />
        <div className="mt-2 flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={signOut.isPending}
            onClick={() =>
              signOut.mutate(undefined, {
                onSuccess: () => {
                  notify('success', t('admin.account.signedOut'))
                  close()
                },
              })
            }
          >
            {t('admin.account.signOutSubmit')}
          </Button>
        </div>
      </div>
    </Dialog>
  )
}
