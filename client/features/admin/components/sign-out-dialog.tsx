import { useTranslation } from 'react-i18next'
import type { MemberDetail } from '../../../../domain/members'
import { useSignOutEverywhere } from '../api'
import { ConfirmDialog } from './confirm-dialog'

/** "Sign out everywhere": says on how many devices, and does it once confirmed. */
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
  return (
    <ConfirmDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title={t('admin.account.signOut')}
      effect={t('admin.account.signOutEffect', {
        email: member.account.email,
        count: member.account.sessions,
      })}
      submitLabel={t('admin.account.signOutSubmit')}
      done={t('admin.account.signedOut')}
      action={useSignOutEverywhere(member.account.id)}
      variables={undefined}
    />
  )
}
