import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { AuditLog } from './audit-log'
import { MemberPage } from './member-page'
import { MembersList } from './members-list'

const VIEWS = ['members', 'audit'] as const

/**
 * The console once the second factor is passed: the members, or the audit log; a member's own
 * page. Where the operator is lives in the address (`?member=…`, `?view=audit`, the search), so
 * Back returns to the list as it was, and a member's page can be opened in another tab.
 */
export function Console() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const member = params.get('member')
  if (member) return <MemberPage id={member} />
  const view = params.get('view') === 'audit' ? 'audit' : 'members'
  return (
    <>
      <nav aria-label={t('admin.nav.label')} className="flex gap-2 border-b border-slate-200">
        {VIEWS.map((name) => (
          <Link
            key={name}
            to={name === 'members' ? '/admin' : `/admin?view=${name}`}
            aria-current={view === name ? 'page' : undefined}
            className={`-mb-px border-b-2 px-3 py-2 font-medium ${
              view === name
                ? 'border-brand-600 text-brand-800'
                : 'border-transparent text-slate-600 hover:text-brand-700'
            }`}
          >
            {t(`admin.nav.${name}`)}
          </Link>
        ))}
      </nav>
      {view === 'members' ? <MembersList /> : <AuditLog />}
    </>
  )
}
